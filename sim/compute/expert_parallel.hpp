#pragma once
// Expert parallelism with data-parallel attention: the layout of a MoE model on one instance of t
// GPUs, and the all-to-all dispatch and combine of its MoE layers.
//
// Layout (ExpertParallelLayout). Attention runs data-parallel over D ranks (attention_dp), each a
// tensor-parallel group of t / D GPUs holding its own requests; experts are spread over EP = t
// GPUs (expert_parallel; 1: experts tensor-parallel as the dense FFN). This is how DeepSeek-V3 is
// served: SGLang's `--enable-dp-attention --dp t --ep t` with DeepEP (lmsys.org/blog/2025-05-05-
// large-scale-ep), and DeepSeek's own prefill (attention TP4 x DP8, EP32) and decode (TP4 x DP80,
// EP320) units (arXiv:2412.19437 section 3.4). An MLA latent is shared by every head, so an
// attention TP group holds it once per rank: data-parallel attention keeps one copy per request
// instead of t.
//
// All-to-all. Each token goes to its top-k experts, spread evenly over the R = EP ranks, so a rank
// holding N tokens sends
//   bytes_out = N * k * (R - 1) / R * hidden * 2       (BF16 rows; the local share stays)
// in dispatch and receives as many back in combine. With G GPUs per node sharing the scale-up
// link (node_gpus), (G' - 1) / (R - 1) of those bytes stay in the node (G' = min(G, R)) and
// (R - G') / (R - 1) cross the scale-out network through the rank's own NIC, both at once:
//   a2a = imbalance * max(bytes_in_node / (scale_up_bandwidth * scale_up_efficiency),
//                         bytes_across / (nic_bandwidth / 8 * kScaleOutEfficiency))
//         + scale_up_latency + (R - 1) * scale_up_step_latency
// and a MoE layer pays dispatch + combine = 2 * a2a. imbalance >= 1 is the busiest rank's routed
// load over the mean (1: perfectly balanced routing, never reached). kEplbLoadImbalance = 1.11 is
// what a deployment with DeepSeek's expert load balancer (EPLB, redundant experts) sees: NVIDIA's
// TensorRT-LLM measured DeepSeek-R1 at EP32 (tech blog "Scaling Expert Parallelism in
// TensorRT-LLM, part 1", Table 1: (max - mean) / mean averaged over layers and iterations, 0.109
// and 0.115 with EPLB, 1.564 without, i.e. max / mean 1.11 and 2.56). kScaleOutEfficiency = 0.86: DeepEP's normal kernels reach 43 GB/s of RDMA bottleneck
// bandwidth on H800 with 400 Gb/s CX7 InfiniBand (github.com/deepseek-ai/DeepEP, README table,
// internode EP16 dispatch). For R = 2 this is one link carrying N k / 2 rows each way. The
// closed form assumes every rank's NIC reaches every other node at its line rate (a non-blocking
// fabric) and that nothing else uses the NIC. Dispatch in FP8 (DeepEP's option) would halve the
// dispatch bytes; BF16 both ways is the conservative reading.
//
// On the flow model (scale_out_flows, set by the serving layer for a prefill instance whose EP
// group spans nodes and whose ranks sit on distinct hosts of the network; see
// sim/serving/expert_exchange.hpp): the timing model keeps only the latency terms of a MoE layer's
// dispatch and combine, and expert_parallel_traffic hands the rest to the caller, per MoE layer:
//   in_node   = 2 * imbalance * bytes_in_node / (scale_up_bandwidth * scale_up_efficiency)
//   pair      = 2 * imbalance * bytes_across / (R - G')   (bytes per ordered pair of ranks on
//               different nodes: the dispatch and combine rows a rank sends to one remote rank)
// The caller sends `pair` bytes between every such pair as flows, which share the NICs and the
// fabric with the KV transfers, and ends the layers when both the flows and an in_node timer are
// done. On an idle non-blocking fabric whose host links have efficiency kScaleOutEfficiency this
// is the closed form's max(...) plus one path latency per exchange. The imbalance scales every
// pair's bytes alike (the busiest rank's load on every rank: the conservative reading). Decode
// steps keep the closed form: a step's cross-node bytes are a few tokens' rows per rank (3 us of
// NIC time per MoE layer at one token per DP rank against 60 us of latency terms on H800), while
// flows would cost 128 per layer and step (docs/models.md, "The all-to-all on the flow model").
// Units: bytes, seconds inside, Time out.

#include "sim/compute/hardware_spec.hpp"
#include "sim/compute/model_spec.hpp"
#include "sim/core/time.hpp"
#include "sim/core/units.hpp"

namespace lynxsim {

inline constexpr double kScaleOutEfficiency = 0.86;
inline constexpr int kDefaultNodeGpus = 8;
inline constexpr double kEplbLoadImbalance = 1.11;

struct ExpertParallelLayout {
  int attention_dp = 1;
  int expert_parallel = 1;
  double load_imbalance = 1.0;
  int node_gpus = kDefaultNodeGpus;
  // The cross-node all-to-all travels as flows on the network (the timing model keeps only its
  // latency terms); set by the serving layer, never by a scenario.
  bool scale_out_flows = false;
  bool trivial() const { return attention_dp == 1 && expert_parallel == 1; }
};

// The layout an instance of `tensor_parallel` GPUs gets when nothing says otherwise. A MoE card
// with MLA is served the DeepSeek-V3 way: experts over all GPUs (EP = tensor_parallel) and
// attention data-parallel, on prefill in attention TP groups of 4 (DeepSeek-V3's prefill unit,
// attention TP4 with sequence parallelism, arXiv:2412.19437 section 3.4.1, so that one long prompt
// is not left to one GPU; 2 or 1 where 4 does not divide), on decode one GPU per DP rank (SGLang's
// `--enable-dp-attention --dp tp`, lmsys.org/blog/2025-05-05-large-scale-ep). Other cards: the
// trivial layout. The load imbalance is kEplbLoadImbalance.
ExpertParallelLayout default_layout(const ModelSpec& model, int tensor_parallel, bool prefill);

// Throws std::invalid_argument naming the problem: attention_dp not dividing tensor_parallel,
// expert_parallel other than 1 or tensor_parallel (or > 1 for a dense model), imbalance < 1,
// node_gpus < 1.
void check_layout(const ExpertParallelLayout& layout, int tensor_parallel, bool moe);

// One all-to-all in which each of `ranks` ranks sends bytes_out_per_rank, split into its parts:
// the bytes leaving each rank's node, the in-node transfer time (imbalance included) and the
// latency terms, and the ranks that share a node (min(node_gpus, ranks)). Throws
// std::invalid_argument for imbalance < 1.
struct AllToAllSplit {
  int local_ranks = 1;
  double across_bytes = 0.0;
  double in_node_s = 0.0;
  Time latency;
};
AllToAllSplit all_to_all_split(const HardwareSpec& hw, int ranks, Bytes bytes_out_per_rank,
                               double imbalance, int node_gpus);

// One all-to-all in closed form; zero for one rank. Throws std::invalid_argument for imbalance < 1.
Time all_to_all_time(const HardwareSpec& hw, int ranks, Bytes bytes_out_per_rank, double imbalance,
                     int node_gpus = kDefaultNodeGpus);

// Dispatch plus combine of one MoE layer for `tokens_per_rank` tokens on each of `ranks` ranks;
// zero for a dense model or one rank.
Time expert_parallel_layer_time(const HardwareSpec& hw, const ModelSpec& model, int ranks,
                                int tokens_per_rank, double imbalance,
                                int node_gpus = kDefaultNodeGpus);

// The parts of one MoE layer's dispatch plus combine that the flow model carries (above): the
// in-node time, the latency terms and the bytes per ordered pair of ranks on different nodes
// (zero when the group fits one node). All zero for a dense model or one rank.
struct ExpertTraffic {
  double in_node_s = 0.0;
  double pair_bytes = 0.0;
  Time latency;
};
ExpertTraffic expert_parallel_traffic(const HardwareSpec& hw, const ModelSpec& model, int ranks,
                                      int tokens_per_rank, double imbalance, int node_gpus);

}  // namespace lynxsim
