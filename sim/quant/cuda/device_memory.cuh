#pragma once
// Host-side helpers of the CUDA kernels (codec_kernels.cu, fp4_kernels.cu): error checks, device
// memory owned for the duration of one host call, and CUDA-event timing on the default stream.

#include <cuda_runtime.h>

#include <cstddef>
#include <stdexcept>
#include <string>

namespace lynxsim::quant::cuda_backend {

inline void check(cudaError_t error, const char* what) {
  if (error != cudaSuccess) {
    throw std::runtime_error(std::string("CUDA kernels: ") + what + ": " + cudaGetErrorString(error));
  }
}

class DeviceBuffer {
public:
  explicit DeviceBuffer(std::size_t bytes) : bytes_(bytes) {
    if (bytes_ > 0) {
      check(cudaMalloc(&data_, bytes_), "cudaMalloc");
    }
  }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
  ~DeviceBuffer() {
    if (data_ != nullptr) {
      cudaFree(data_);
    }
  }
  template <typename T>
  T* as() const {
    return static_cast<T*>(data_);
  }
  void upload(const void* host) { check(cudaMemcpy(data_, host, bytes_, cudaMemcpyHostToDevice), "upload"); }
  void download(void* host) const { check(cudaMemcpy(host, data_, bytes_, cudaMemcpyDeviceToHost), "download"); }

private:
  void* data_ = nullptr;
  std::size_t bytes_ = 0;
};

// Elapsed device time of the work a callable launches on the default stream.
class EventTimer {
public:
  EventTimer() {
    check(cudaEventCreate(&start_), "cudaEventCreate");
    check(cudaEventCreate(&stop_), "cudaEventCreate");
  }
  EventTimer(const EventTimer&) = delete;
  EventTimer& operator=(const EventTimer&) = delete;
  ~EventTimer() {
    cudaEventDestroy(start_);
    cudaEventDestroy(stop_);
  }
  template <typename Launch>
  double seconds(Launch&& launch) {
    check(cudaEventRecord(start_), "cudaEventRecord");
    launch();
    check(cudaEventRecord(stop_), "cudaEventRecord");
    check(cudaEventSynchronize(stop_), "cudaEventSynchronize");
    float ms = 0.0F;
    check(cudaEventElapsedTime(&ms, start_, stop_), "cudaEventElapsedTime");
    return static_cast<double>(ms) * 1e-3;
  }

private:
  cudaEvent_t start_ = nullptr;
  cudaEvent_t stop_ = nullptr;
};

}  // namespace lynxsim::quant::cuda_backend
