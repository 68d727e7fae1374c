#pragma once
// One accelerator as the timing model sees it: peak dense throughput, HBM size and bandwidth,
// achievable fractions of those peaks, fixed costs, and its links. Values come from a hardware
// profile in configs/gpus/, where each one carries its source.
//
// compute_efficiency        fraction of peak_bf16 that large GEMMs reach
// gemm_half_tokens          GEMM rows M at which a GEMM reaches half of compute_efficiency:
//                           efficiency(M) = compute_efficiency * M / (M + gemm_half_tokens)
// elementwise_efficiency    fraction of hbm_bandwidth that unfused norm, RoPE, activation and
//                           residual-add kernels reach
// kv_read_efficiency        fraction of hbm_bandwidth that attention reaches streaming paged KV
// attention_efficiency      fraction of peak_bf16 that fused (FlashAttention-style) attention reaches
// causal_overhead_tokens    extra key positions per query that a causal attention kernel computes
//                           (masked diagonal tiles, uneven tails): a chunk of n > 1 new tokens
//                           runs its n (c + n / 2) pairs at attention_efficiency * pairs /
//                           (pairs + causal_overhead_tokens * n); optional, 0 where
//                           attention_efficiency is itself a causal measurement
// memory_efficiency         fraction of hbm_bandwidth that weight/KV streaming reaches
// kernel_memory_efficiency  fraction of hbm_bandwidth that a quantize/dequantize kernel reaches
// layer_overhead            fixed cost per transformer layer per forward (launches, norms, rope)
// step_overhead             fixed cost per forward step (scheduling, sampling, LM head launch)
// kernel_launch             fixed cost per launched kernel
// kernel_floor              fixed GPU time of every GEMM and elementwise kernel of a forward pass
// attention_floor           fixed GPU time of one attention kernel
// attention_block_time      time one SM takes to walk one KV block of a split-KV decode attention
//                           kernel when latency, not bandwidth, bounds it (split_kv.hpp)
// sm_count                  streaming multiprocessors; 0 where no split-KV decode kernel is
//                           modelled (decode attention is then the bandwidth roofline alone)
// scale_up_bandwidth        per-direction bandwidth of the intra-node link used by all-reduce
// scale_up_efficiency       fraction of scale_up_bandwidth a ring all-reduce reaches (bus b/w)
// scale_up_latency          fixed latency of one collective on that link (launch, synchronisation)
// scale_up_step_latency     latency of one ring step (one hop: send, flag wait, reduce); a ring
//                           all-reduce over n ranks takes 2 (n - 1) steps
// scale_up_ll_latency       fixed latency of one ring all-reduce in NCCL's low-latency (LL)
//                           protocol, whose 8-byte lines carry 4 bytes of data and 4 of flag (half
//                           the bus bandwidth, no separate synchronisation); optional, 0 where the
//                           profile models the Simple protocol only
// nic_bandwidth             scale-out NIC line rate per accelerator
// peak_fp8                  dense FP8 tensor-core rate; optional, 0 where the profile has none
// peak_fp4                  dense FP4 (E2M1, block-scaled MXFP4/NVFP4) tensor-core rate; optional,
//                           0 where the profile has none (before Blackwell)
// The GEMMs of a quantized model card run at one of these peaks (weight_format.hpp).

#include <string>

#include "sim/core/time.hpp"
#include "sim/core/units.hpp"

namespace lynxsim {

struct HardwareSpec {
  std::string name;
  std::string description;
  FlopsPerSecond peak_bf16;
  FlopsPerSecond peak_int8;
  FlopsPerSecond peak_fp8{0.0};
  FlopsPerSecond peak_fp4{0.0};
  Bytes hbm_capacity;
  BytesPerSecond hbm_bandwidth;
  double compute_efficiency = 0.0;
  double memory_efficiency = 0.0;
  double attention_efficiency = 0.0;
  double causal_overhead_tokens = 0.0;
  double kernel_memory_efficiency = 0.0;
  double gemm_half_tokens = 0.0;
  double elementwise_efficiency = 1.0;
  double kv_read_efficiency = 1.0;
  double scale_up_efficiency = 1.0;
  Time kernel_floor;
  Time attention_floor;
  Time attention_block_time;
  int sm_count = 0;
  Time layer_overhead;
  Time step_overhead;
  Time kernel_launch;
  BytesPerSecond scale_up_bandwidth;
  Time scale_up_latency;
  Time scale_up_step_latency;
  Time scale_up_ll_latency;
  BitsPerSecond nic_bandwidth;
};

// One line for `lynxsim list`: name, BF16 peak, HBM size and bandwidth, NIC.
std::string describe(const HardwareSpec& hw);

}  // namespace lynxsim
