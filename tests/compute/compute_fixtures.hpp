#pragma once
// Shared inputs of the compute tests: a small model and a round-number device whose times are
// easy to derive by hand, and the paths of the shipped cards.

#include <filesystem>
#include <string>

#include "sim/scenario/card_files.hpp"
#include "sim/compute/hardware_spec.hpp"
#include "sim/compute/model_spec.hpp"

namespace lynxsim::test {

// 2 layers, hidden 64, 4 heads / 2 KV heads of 16, FFN 128, vocab 100.
// Linear params per layer: 64*16*(8+4) + 3*64*128 = 12288 + 24576 = 36864.
inline ModelSpec tiny_model() {
  ModelSpec m;
  m.name = "tiny";
  m.description = "test model";
  m.num_layers = 2;
  m.hidden_size = 64;
  m.num_heads = 4;
  m.num_kv_heads = 2;
  m.head_dim = 16;
  m.ffn_dim = 128;
  m.vocab_size = 100;
  m.num_params = 1e5;
  m.rope_theta = 10000.0;
  m.max_context = 4096;
  return m;
}

// 1 TFLOPS at full efficiency (attention at half), 1 TB/s HBM at full efficiency, 1 us per layer,
// 10 us per step, 4 us per launch, 100 GB/s scale-up with 2 us latency.
inline HardwareSpec round_device() {
  HardwareSpec h;
  h.name = "round";
  h.description = "test device";
  h.peak_bf16 = {1e12};
  h.peak_int8 = {2e12};
  h.hbm_capacity = {80'000'000'000};
  h.hbm_bandwidth = {1e12};
  h.compute_efficiency = 1.0;
  h.memory_efficiency = 1.0;
  h.attention_efficiency = 0.5;
  h.kernel_memory_efficiency = 0.5;
  h.layer_overhead = Time::from_us(1.0);
  h.step_overhead = Time::from_us(10.0);
  h.kernel_launch = Time::from_us(4.0);
  h.scale_up_bandwidth = {100e9};
  h.scale_up_latency = Time::from_us(2.0);
  h.nic_bandwidth = {400e9};
  return h;
}

inline std::filesystem::path source_path(const std::string& relative) {
  return std::filesystem::path(LYNXSIM_SOURCE_DIR) / relative;
}

inline ModelSpec shipped_model(const std::string& name) {
  return scenario::load_model_card(source_path("models/" + name + ".json"));
}

inline HardwareSpec shipped_hardware(const std::string& name) {
  return scenario::load_hardware_profile(source_path("configs/gpus/" + name + ".json"));
}

}  // namespace lynxsim::test
