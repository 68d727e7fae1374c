#pragma once
// The serving engine around the model (vLLM, SGLang, ...) as the simulator sees it: host-side costs
// that no GPU kernel accounts for. Values come from a profile in configs/engines/, each with its
// source; `ideal` has none of them.
//
// Per request (added to the request's timeline, serially):
//   arrival_to_prefill   fixed time from arrival to the prefill scheduler taking the request
//                        (request parsing, scheduling, input preparation)
//   tokenize_per_token   tokenization time per prompt token, also before prefill
//   kv_connector_setup   per KV transfer: connector handshake, block allocation and completion
//                        notification on the decode side, after the KV is in place
//   first_decode_launch  from the KV being in place to the request's first decode step being
//                        scheduled (step alignment, scheduler pick-up)
//   decode_tokenizes_prompt  the decode instance receives the prompt text only after the prefill
//                        has finished (a proxy sends the request to prefill, waits, then sends it
//                        to decode) and tokenizes it again: tokenize_per_token x prompt tokens
//                        more in the handover; false where the router dispatches to both at once
// Per forward step (TimingModel::pass):
//   step_overhead + step_overhead_per_sequence * sequences   scheduling, input preparation,
//                        sampling and output processing, not overlapped with the GPU
//   step_overhead_per_context_token * tokens   host work over every token the step's sequences
//                        hold (prompt and output so far), as in engines that rebuild per-sequence
//                        token lists and block tables in Python each step; zero for engines that
//                        keep them in persistent arrays and apply per-step differences
//   tp_step_overhead     added to every step at tensor parallelism > 1: the step's inputs sent
//                        from the driver to the other ranks' workers
//   layer_launch_overhead host time to issue one layer's kernels when the pass runs without CUDA
//                        graphs (cuda_graphs for decode and verification batches, prefill_cuda_graphs
//                        for passes with a prompt chunk). The host issues kernels asynchronously, ahead
//                        of the GPU, so a layer takes max(layer_launch_overhead, its GPU time): a short
//                        eager pass is bound by the host, a long one by the GPU. Zero with graphs.
// Per layer with tensor parallelism (TimingModel::layer_breakdown):
//   tp_comm_overlap      fraction of the layer's two all-reduces that runs under the layer's GEMM
//                        and elementwise kernels (async TP, GEMM/collective fusion); the exposed
//                        time is allreduce - min(tp_comm_overlap * allreduce, gemm + elementwise)
//   small_allreduce_latency, small_allreduce_max_bytes
//                        the engine's own all-reduce kernels (custom one-shot/two-shot, symmetric
//                        memory) for messages up to small_allreduce_max_bytes: the fixed cost of
//                        one collective is small_allreduce_latency instead of NCCL's ring
//                        latencies, the bandwidth term stays the ring's (TimingModel::tp_allreduce);
//                        max bytes 0: NCCL's ring for every message
//
// A TimingModel built with an engine takes these per-step costs in place of the hardware profile's
// step_overhead and (additive) layer_overhead.

#include <cstdint>
#include <string>

#include "sim/core/time.hpp"

namespace lynxsim {

struct EngineSpec {
  std::string name = "ideal";
  std::string description = "no host-side costs";
  Time arrival_to_prefill;
  Time tokenize_per_token;
  Time kv_connector_setup;
  Time first_decode_launch;
  bool decode_tokenizes_prompt = false;
  Time step_overhead;
  Time step_overhead_per_sequence;
  Time step_overhead_per_context_token;
  Time tp_step_overhead;
  bool cuda_graphs = true;
  bool prefill_cuda_graphs = true;
  Time layer_launch_overhead;
  double tp_comm_overlap = 0.0;
  Time small_allreduce_latency;
  std::int64_t small_allreduce_max_bytes = 0;

  // Arrival to prefill start for a prompt of `prompt_tokens`.
  Time request_admission(int prompt_tokens) const {
    return arrival_to_prefill + tokenize_per_token * prompt_tokens;
  }
  // KV in place to the first decode step being scheduled, for a prompt of `prompt_tokens`.
  Time decode_handover(int prompt_tokens) const {
    const Time retokenize =
        decode_tokenizes_prompt ? tokenize_per_token * prompt_tokens : Time::zero();
    return kv_connector_setup + first_decode_launch + retokenize;
  }
  // Host time of one forward step of `sequences` holding `context_tokens` tokens in all, on
  // `tensor_parallel` GPUs.
  Time step_time(int sequences, int tensor_parallel = 1, double context_tokens = 0.0) const {
    const Time tp = tensor_parallel > 1 ? tp_step_overhead : Time::zero();
    return step_overhead + step_overhead_per_sequence * sequences + tp + context_cost(context_tokens);
  }
  // The part of a step's host time that grows with the `tokens` its sequences hold.
  Time context_cost(double tokens) const {
    return Time::from_seconds(step_overhead_per_context_token.seconds() * tokens);
  }
  // Host time to issue one layer of a pass, zero when the pass runs as a CUDA graph.
  Time layer_host_time(bool prefill) const {
    return (prefill ? prefill_cuda_graphs : cuda_graphs) ? Time::zero() : layer_launch_overhead;
  }
  // The part of a layer's all-reduce time `allreduce` left exposed next to `compute` of GEMM and
  // elementwise kernels.
  Time exposed_allreduce(Time allreduce, Time compute) const {
    const Time hidden = Time::from_seconds(tp_comm_overlap * allreduce.seconds());
    return allreduce - min(hidden, compute);
  }
};

}  // namespace lynxsim
