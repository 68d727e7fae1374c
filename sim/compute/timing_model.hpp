#pragma once
// Roofline timing of a dense transformer forward pass on one tensor-parallel group.
//
// A forward pass over a batch is described by its PassShape: for each sequence i, n_i new (query)
// tokens after c_i cached tokens. Per layer and per TP rank (t = tensor_parallel):
//
//   linear   FLOPs  = 2 * N * P_lin / t                      N = sum n_i, P_lin = linear params/layer
//            bytes  = 2 * P_lin / t                          BF16 weights, streamed once per pass
//                   + 2 * N * (4 * hidden + ((2*heads + 2*kv_heads) * head_dim + 3 * ffn) / t)
//                                                            activations in and out of each GEMM
//   attention FLOPs = 4 * head_dim * H_r * sum n_i * (c_i + n_i / 2)
//                     causal, counted as FlashAttention does: a full prefill of s tokens gives
//                     4 * s^2 * heads * head_dim / 2; H_r = ceil(heads / t) query heads per rank
//            bytes  = 2*2 * head_dim * KV_r * sum (c_i + n_i)      K and V read, BF16 (a sequence
//                                                                  with n_i = 0 reads nothing)
//                   + 2*2 * head_dim * KV_r * N                    new K and V written
//                   + 2*2 * head_dim * H_r * N                     Q read, output written
//                     KV_r = ceil(kv_heads / t) KV heads per rank
//
//   elementwise bytes = 2 * N * (3 * ffn / t + 10 * hidden + 2 * (H_r + KV_r) * head_dim)
//                     memory-only kernels between the GEMMs: SwiGLU (reads gate and up, writes one),
//                     two fused residual-add + RMSNorm (read 2, write 2 rows each, plus the
//                     embedding-sized residual stream once more), RoPE on Q and K (read and write)
//
// Each operator is its own roofline plus the fixed GPU time of its kernels:
//   time_op = max(FLOPs / (peak_bf16 * e_c), bytes / (HBM * e_m)) + kernels * floor
//   linear       e_c = compute_efficiency * M / (M + gemm_half_tokens)   (M = N rows; small-M GEMMs
//                      fill the tensor cores poorly), e_m = memory_efficiency, 4 GEMM kernels
//                      (QKV, output projection, gate/up, down) of kernel_floor each
//   attention    e_c = attention_efficiency * P / (P + causal_overhead_tokens * Q), P the pairs and
//                      Q = sum of n_i over chunks with n_i > 1 (the masked diagonal tiles of a causal
//                      kernel, a cost per query), e_m = kv_read_efficiency (paged KV streaming), one
//                      kernel of attention_floor when the chunk has new tokens. A pure decode pass
//                      (one new token per sequence) on a GPU with sm_count > 0 also has a latency
//                      bound: time = max(roofline, busiest_sm_blocks * attention_block_time) + floor,
//                      the split-KV work layout of split_kv.hpp at the batch's mean KV length
//   elementwise  memory only, e_m = elementwise_efficiency, 6 kernels of kernel_floor (two norms,
//                      RoPE, activation, two residual adds)
// An operator is compute-bound when its compute term is the larger. A layer adds its fixed cost
// and, when t > 1, two ring all-reduces (after attention and after the MLP) of the N * hidden BF16
// activations on the scale-up link at its bus bandwidth, 2 (t - 1) ring steps (reduce-scatter,
// then all-gather) each with a hop latency:
//   allreduce(B) = 2 * (t - 1) / t * B / (scale_up_bandwidth * scale_up_efficiency)
//                  + scale_up_latency + 2 * (t - 1) * scale_up_step_latency      (Simple protocol)
// or, where the profile has a scale_up_ll_latency, the faster of that and NCCL's LL protocol:
//   2 * [2 * (t - 1) / t * B / (bandwidth * efficiency)] + scale_up_ll_latency
//                  + 2 * (t - 1) * scale_up_step_latency
// (half the bus bandwidth, a smaller fixed cost: NCCL picks LL for small messages).
// An engine with its own small-message all-reduce kernels (engine_spec.hpp) takes the Simple
// bandwidth term plus its small_allreduce_latency for messages up to small_allreduce_max_bytes,
// when that is faster.
// With an engine whose tp_comm_overlap is o > 0, o of the two all-reduces runs under the layer's
// GEMM and elementwise kernels: exposed = allreduce - min(o * allreduce, linear + elementwise)
// (engine_spec.hpp); without one, or with o = 0, nothing overlaps.
// The efficiencies, floors and link constants are fitted to public operator and NCCL measurements
// (docs/design.md, "Timing calibration"; lynxsim calibrate-timing --fit).
// A pass is  layers * layer + LM head + step_overhead (an engine's step_time(sequences, tokens)
// when the model has an engine, tokens = sum (c_i + n_i), which then has no additive
// layer_overhead), where the LM head is a linear operator of vocab * hidden / t weights (one GEMM
// kernel) applied to one token per sequence (prefill and decode emit one logit row per sequence;
// verification emits one per query token).
//
// Verification of k drafts made after c committed tokens is a forward over k + 1 query positions
// (the token that produced the first draft, then the k drafts; the last position yields the bonus
// token) attending to the c committed tokens with full-precision KV and causally to each other: the
// chunk {k + 1 new, c cached} with k + 1 logit rows. Within a decode batch (verify_step) it
// replaces the sequence's chunk {1 new, c + k cached}; the batch shares one weight stream, and
//   verify_step = decode_step(batch) + pass(batch with verifying chunks) - pass(batch)
// so the verifying positions add the roofline's extra linear, attention, elementwise and LM-head
// work at the batch's total query count, on top of whatever decode_step costs.
//
// An engine that runs a pass without CUDA graphs (engine_spec.hpp) issues each layer's kernels from
// the host in layer_launch_overhead, ahead of the GPU: the layer takes
//   max(layer_launch_overhead, linear + attention + elementwise + all-reduces).
// A pass timed from a list of chunks with more than one new token in some chunk is a prefill pass
// (prefill_cuda_graphs); one built from single-token or verifying chunks (PassTotals::add) is a
// decode step (cuda_graphs).
//
// The bound of a composite (a layer, a pass) is the bound that accounts for more of its roofline
// time (fixed costs and all-reduces excluded).
//
// Tensor parallelism: heads and weights split evenly; when t > kv_heads each rank still holds one KV
// head, so KV heads are replicated kv_replication() = ceil(t / kv_heads) times. Real serving stacks
// require t to divide heads and t and kv_heads to divide one another; for those layouts the ceil()
// is exact, otherwise the busiest rank (rounded up) sets the time and the replication is an upper
// bound. kv_bytes_per_token_per_rank() is exact in every case.
//
// Quantize/dequantize kernels are memory-bound:
//   kernel_time = launches * kernel_launch + (bytes_in + bytes_out) / (HBM * kernel_memory_efficiency)
//
// Cards with MLA, sliding-window or linear-attention layers and MoE FFNs (model_layers.hpp) change
// two operators. The linear operator computes with the active parameters (router, top-k and shared
// experts) and streams the weights of the distinct experts the pass's N tokens touch,
// E * (1 - (1 - k/E)^N) per MoE layer. The attention operator is the average over the layers of
// their kinds' rooflines (timing_attention.cpp), per rank with H_r query heads:
//   sliding window W   as full attention with pairs min(sum n_i (c_i + n_i/2), N W) and KV read
//                      min(sum (c_i + n_i), S W) (S sequences): exact for decode past the window,
//                      an upper bound for a prefill chunk (it ignores the first W queries' shorter
//                      windows)
//   MLA (latent d_c, rope d_r, nope d_n, value d_v); the latent is read once per rank
//     absorbed  FLOPs 2 H_r (2 d_c + d_r) pairs, bytes 2 (d_c + d_r) (KV read + N)
//                     + 2 H_r (2 d_c + d_r) N (queries and outputs in latent space)
//     expanded  FLOPs 2 H_r (d_n + d_r + d_v) pairs + 2 d_c H_r (d_n + d_v) KV read (up-projection
//               of every cached latent), bytes 2 (d_c + d_r) (KV read + N)
//               + 2 * 2 H_r (d_n + d_r + d_v) KV read (the expanded K and V written and read)
//     and the engine takes the faster of the two (absorbed for decode, expanded for long prefill)
//   linear (gated DeltaNet, value heads V_r, key heads K_r, dims d_k, d_v, chunk 64)
//     FLOPs N V_r (4 d_k d_v + 2 * 64 (d_k + d_v)) (state update and read, intra-chunk attention),
//     bytes 2 * state_r * S (state read and written) + 2 N (2 K_r d_k + 2 V_r d_v)
//

// Data-parallel attention and expert parallelism (set_parallel_layout, expert_parallel.hpp): with
// D attention DP ranks of a = t / D GPUs each and sequences placed round-robin, the busiest DP rank
// holds S_b = ceil(S / D) of the pass's S sequences and the share S_b / S of its tokens, pairs and
// KV reads (equal lengths assumed; one sequence: all of them). Per layer and rank:
//   attention    the roofline above for the busiest DP rank's share with H_r = ceil(heads / a)
//   linear       FLOPs 2 (N_b P_attn / a + imbalance * N * P_ffn / t), bytes w (P_attn / a +
//                P_ffn_read / t) + activations; P_attn the attention projections, P_ffn the
//                active FFN parameters (imbalance only with EP > 1)
//   elementwise  the busiest DP rank's N_b tokens
//   communication  allreduce over a GPUs of the N_b rows after attention, then per MoE layer
//                the dispatch and combine of ceil(N_b / a) tokens per rank over EP ranks
//                (expert_parallel_layer_time; EP = 1: an all-reduce of the N rows over t GPUs),
//                per dense layer an all-reduce of the N rows over t GPUs, averaged over layers
//                (with scale_out_flows the dispatch and combine keep their latency terms only:
//                the caller carries the rest, expert_traffic)
// Nothing of it overlaps compute (two-micro-batch overlap is not modelled: conservative).
//
// Weights: the projections are three parts p (attention; dense FFNs, shared experts, routers;
// routed experts), each in its card format of b_p bytes per weight, scales included (BF16 2, FP8 1,
// MXFP4 0.53125), and run at GEMM precision q_p (weight_format.hpp: W8A8 at peak_fp8 on Hopper,
// Ada and MI300; W4A4 at peak_fp4 on Blackwell; else weight-only at peak_bf16, W4A16 as Marlin
// kernels stream 4-bit weights and dequantize them to BF16). Per layer and rank the linear
// operator streams sum_p b_p P_p,read / t weight bytes and computes sum_p 2 N P_p,active / t /
// (peak(q_p) e_c), e_c the BF16 fit's at every precision; the LM head, attention and activations
// stay BF16 (timing_precision.cpp).
//
// Validity: BF16 KV, one pass at a time on the group,
// communication overlaps compute only as the engine's tp_comm_overlap says, no pipeline
// parallelism. Units: seconds inside, Time out.

#include <cstdint>
#include <optional>
#include <unordered_map>
#include <span>
#include <vector>

#include "sim/compute/engine_spec.hpp"
#include "sim/compute/expert_parallel.hpp"
#include "sim/compute/hardware_spec.hpp"
#include "sim/compute/model_spec.hpp"
#include "sim/compute/weight_format.hpp"
#include "sim/core/time.hpp"
#include "sim/core/units.hpp"

namespace lynxsim {

enum class Bound { compute, memory };

const char* to_string(Bound bound);

struct OpTiming {
  Time time;
  double flops = 0.0;
  double bytes = 0.0;
  Bound bound = Bound::memory;
};

// One sequence of a pass: new_tokens queries after cached_tokens already in the KV cache.
struct SequenceChunk {
  int new_tokens = 0;
  int cached_tokens = 0;
};

// The sums over a pass's chunks, which is all the roofline above depends on: a caller that keeps
// them (a decode batch) times a pass without building a list of chunks. add() accumulates in the
// order attention_op does, so a pass timed from totals equals the one timed from its chunks, bit
// for bit. Chunks without new tokens read nothing and are not counted.
struct PassTotals {
  int sequences = 0;            // chunks (an engine's per-step cost depends on their number)
  int new_tokens = 0;           // N = sum n_i
  double attention_pairs = 0.0; // sum n_i * (c_i + n_i / 2)
  double kv_read_tokens = 0.0;  // sum (c_i + n_i)
  double causal_queries = 0.0;  // sum of n_i over chunks with n_i > 1 (causal masking)
  bool prefill = false;         // a pass with a prompt chunk (TimingModel::totals_of)
  void add(SequenceChunk c) {
    ++sequences;
    if (c.new_tokens == 0) return;
    const double n = c.new_tokens;
    new_tokens += c.new_tokens;
    if (c.new_tokens > 1) causal_queries += n;
    attention_pairs += n * (c.cached_tokens + n / 2.0);
    kv_read_tokens += c.cached_tokens + n;
  }
};

// One layer on one TP rank. flops and bytes are per rank.
struct LayerBreakdown {
  OpTiming linear;
  OpTiming attention;
  OpTiming elementwise;
  Time allreduce_time;
  Time overhead_time;
  Time host_time;  // the engine's host issue time of the layer; the layer takes at least this
  Time total_time() const;
  Bound bound() const;
};

class TimingModel {
public:
  // Throws std::invalid_argument for tensor_parallel < 1 or a model with a non-positive dimension.
  // With an engine, its per-step and per-layer host costs replace the hardware profile's
  // step_overhead and layer_overhead (engine_spec.hpp).
  TimingModel(ModelSpec model, HardwareSpec hw, int tensor_parallel,
              std::optional<EngineSpec> engine = std::nullopt);

  // One layer for one sequence chunk, including layer overhead and all-reduces.
  OpTiming prefill_layer(int new_tokens, int cached_tokens) const;
  // A whole prefill of `tokens` from an empty cache: all layers, LM head, step overhead.
  OpTiming prefill(int tokens) const;
  // One decode step producing one token for each sequence, whose KV length is kv_lengths[i].
  OpTiming decode_step(std::span<const int> kv_lengths) const;
  // Verification alone: one forward over draft_tokens + 1 queries after context_tokens committed.
  OpTiming verify(int draft_tokens, int context_tokens) const;
  // One decode step in which sequence i (KV length kv_lengths[i]) verifies drafts[i] drafts
  // (0: an ordinary decode token). Equals decode_step(kv_lengths) when no sequence verifies.
  OpTiming verify_step(std::span<const int> kv_lengths, std::span<const int> drafts) const;
  // Any batch of chunks (chunked prefill mixed with decode): all layers, LM head, step overhead.
  OpTiming pass(std::span<const SequenceChunk> chunks, int logit_rows) const;
  // The same from the chunks' totals.
  OpTiming pass(const PassTotals& totals, int logit_rows) const;
  // verify_step from the totals of the plain batch ({1, c_i + k_i} per sequence) and of the batch
  // with verifying chunks ({k_i + 1, c_i}), `rows` = sum (k_i + 1) logit rows.
  OpTiming verify_step(const PassTotals& plain, const PassTotals& verifying, int rows) const;
  // The .time of pass() and verify_step() alone, without their FLOP and byte counts (a serving
  // run asks for millions of step times). Times are integer picoseconds, so verify_step's
  // decode_step + pass(verifying) - pass(plain) is exactly pass(verifying) when some sequence
  // verifies, and decode_step otherwise.
  Time pass_time(const PassTotals& totals, int logit_rows) const;
  Time verify_step_time(const PassTotals& plain, const PassTotals& verifying, int rows) const;

  // The plain decode steps of a batch of `sequences` sequences (one new token each), timed from the
  // sum of their KV lengths: pass_time of the batch's totals, bit for bit, with the parts that
  // depend on the batch size alone computed once (a decode instance plans many steps at a time),
  // GQA attention's roofline from the same products attention_op forms, and the split-KV chain of
  // the latest context length in blocks (timing_decode_steps.cpp). Valid while the TimingModel lives.
  class DecodeSteps {
  public:
    int sequences() const { return sequences_; }
    Time time(std::int64_t kv_lengths) const;

  private:
    friend class TimingModel;
    Time gqa_attention(std::int64_t kv_lengths) const;
    Time chain(std::int64_t kv_read, double kv_read_tokens) const;
    const TimingModel* timing_ = nullptr;
    int sequences_ = 0;
    Time layer_fixed_;  // a layer without attention
    Time host_;         // the engine's host issue time of one decode layer
    Time tail_;         // LM head and step overhead, less the engine's context_cost
    bool gqa_ = false;  // GQA attention on a trivial layout: timed by gqa_attention below
    double flops_per_pair_ = 0.0;
    double kv_row_bytes_ = 0.0;
    double query_bytes_ = 0.0;
    double compute_rate_ = 0.0;
    double memory_rate_ = 0.0;
    mutable std::int64_t chain_after_ = 0;  // chain_ holds for KV reads in (after, until]
    mutable std::int64_t chain_until_ = 0;
    mutable Time chain_;
  };
  DecodeSteps decode_steps(int sequences) const;

  LayerBreakdown layer_breakdown(std::span<const SequenceChunk> chunks) const;
  OpTiming lm_head(int logit_rows) const;
  // Decode attention of `sequences` sequences with `cached_tokens` each, the kernel told of a
  // block table `table_tokens` wide (0: as wide as the context, as a serving engine passes it).
  OpTiming decode_attention(int sequences, int cached_tokens, int table_tokens) const;

  Time kernel_time(Bytes bytes_in, Bytes bytes_out, int launches) const;
  Time allreduce_time(Bytes bytes) const;
  // Ring all-reduce of `bytes` over `ranks` GPUs on the scale-up link (zero for one rank).
  static Time ring_allreduce(const HardwareSpec& hw, int ranks, Bytes bytes);
  // The ring's bandwidth term: 2 (ranks - 1) / ranks * bytes at the bus bandwidth.
  static Time ring_transfer(const HardwareSpec& hw, int ranks, Bytes bytes);
  // An all-reduce as this model's engine runs it: the ring, or for messages up to the engine's
  // small_allreduce_max_bytes the ring's bandwidth term plus small_allreduce_latency, the faster.
  Time tp_allreduce(int ranks, Bytes bytes) const;

  int kv_replication() const;
  int heads_per_rank() const { return heads_per_rank_; }
  int kv_heads_per_rank() const { return kv_heads_per_rank_; }
  // K and V of every layer held by one rank for one token, BF16 (for sliding-window and linear
  // layers: the growth per token below the window).
  Bytes kv_bytes_per_token_per_rank() const;
  // The KV one rank holds for one sequence of `tokens` tokens (timing_attention.cpp).
  Bytes kv_bytes_per_rank(std::int64_t tokens) const;
  // Weights held by one rank (all layers in their formats plus the BF16 LM head).
  Bytes weight_bytes_per_rank() const;

  // Data-parallel attention and expert parallelism of the group (timing_layout.cpp); call before
  // timing anything. Throws std::invalid_argument for a layout check_layout rejects.
  void set_parallel_layout(const ExpertParallelLayout& layout);
  const ExpertParallelLayout& parallel_layout() const { return layout_; }
  // GPUs of one attention DP rank: tensor_parallel / attention_dp.
  int attention_tp() const { return tp_ / layout_.attention_dp; }
  // The MoE dispatch and combine of one layer for a pass of `tokens` tokens on the busiest DP rank.
  // With the layout's scale_out_flows: its latency terms only.
  Time expert_exchange_time(int busiest_tokens) const;
  // The flow model's share of a pass's dispatch and combine, per layer averaged over the layers
  // (expert_parallel_traffic times the MoE layers' share); zero without expert parallelism.
  ExpertTraffic expert_traffic(std::span<const SequenceChunk> chunks) const;

  const ModelSpec& model() const { return model_; }
  const HardwareSpec& hardware() const { return hw_; }
  const std::optional<EngineSpec>& engine() const { return engine_; }
  int tensor_parallel() const { return tp_; }

private:
  void set_heads_per_rank();
  // The parts of a layer and of the LM head that depend on the token (or row) count alone,
  // computed once per count below kMemoTokens: a serving run asks for the same few batch sizes
  // millions of times. The memo makes a TimingModel unsafe to share between threads.
  // layer_fixed is a layer's time without attention (linear, elementwise, all-reduces, overhead):
  // times are integers, so fixed + attention is the layer's sum in any order.
  struct TokenCosts {
    OpTiming linear;
    OpTiming elementwise;
    Time allreduce_time;
    Time layer_fixed;
    OpTiming lm_head;
    bool known = false;
  };
  // Counts below kDenseMemoTokens (decode batches, short prefills) live in a vector, larger ones
  // (long prefill passes, few distinct counts) in a map, so a model never fills a vector of
  // kMemoTokens entries for a handful of long prompts.
  static constexpr int kMemoTokens = 1 << 16;
  static constexpr int kDenseMemoTokens = 1 << 10;
  const TokenCosts& token_costs(int tokens) const;
  TokenCosts compute_token_costs(int tokens) const;
  OpTiming compute_lm_head(int logit_rows) const;

  OpTiming linear_op(double tokens) const;
  OpTiming attention_op(const PassTotals& totals, int table_tokens = 0) const;
  Time split_kv_chain(int sequences, int context_tokens, int table_tokens) const;
  int dense_chain(int sequences, int blocks) const;
  OpTiming gqa_attention(double pairs, double kv_read_tokens, double new_tokens,
                         double causal_queries) const;
  // attention_efficiency less the causal kernel's masked work (causal_overhead_tokens;
  // timing_attention.cpp).
  double causal_efficiency(double pairs, double causal_queries) const;
  // Attention of MLA, sliding-window and linear layers averaged over the layers (timing_attention.cpp).
  OpTiming layered_attention_op(const PassTotals& totals) const;
  OpTiming mla_attention(double pairs, double kv_read_tokens, double new_tokens,
                         double causal_queries) const;
  OpTiming linear_attention(const PassTotals& totals) const;
  LayerBreakdown layer_breakdown(const PassTotals& totals) const;
  static PassTotals totals_of(std::span<const SequenceChunk> chunks);
  // The hardware profile's layer_overhead without an engine; an engine has no additive one.
  Time additive_layer_overhead() const;
  // The host cost of one step of `sequences` holding `context_tokens`: the engine's step_time, else
  // the GPU's step_overhead.
  Time step_cost(int sequences, double context_tokens) const;
  Time layer_host_time(const PassTotals& totals) const;
  OpTiming elementwise_op(double tokens) const;
  PassTotals busiest_dp_rank(const PassTotals& totals) const;
  OpTiming parallel_linear_op(double tokens, double busiest_tokens) const;
  LayerBreakdown parallel_layer(const PassTotals& totals) const;
  Bytes parallel_weight_bytes() const;
  OpTiming roofline(double flops, double bytes, double compute_efficiency, double memory_efficiency,
                    Time floor) const;
  double gemm_efficiency(double rows) const;

  ModelSpec model_;
  HardwareSpec hw_;
  int tp_;
  std::optional<EngineSpec> engine_;
  bool layered_attention_ = false;
  int heads_per_rank_ = 0;     // query heads per attention rank (attention_tp(), set_heads_per_rank)
  int kv_heads_per_rank_ = 0;
  int split_kv_block_shift_ = 0;  // log2 of the tokens per KV block of the split-KV kernel (split_kv.hpp)
  ExpertParallelLayout layout_;
  // GEMM rate over peak_bf16 and bytes per weight by part (timing_precision.cpp); with one format
  // for all parts (uniform_weights_) the attention part's hold for every projection.
  void set_precision();
  OpTiming mixed_linear_op(double attention_tokens, double attention_ranks, double ffn_tokens,
                           double read_tokens, double activations) const;
  Bytes mixed_weight_bytes() const;
  bool uniform_weights_ = true;
  ModelSpec::PartParams part_rates_{1.0, 1.0, 1.0};
  ModelSpec::PartParams part_bytes_{2.0, 2.0, 2.0};
  mutable std::vector<TokenCosts> memo_;
  mutable std::unordered_map<int, TokenCosts> sparse_memo_;
  mutable std::unordered_map<std::uint64_t, int> split_kv_memo_;  // busiest SM's KV blocks
  // A direct-mapped copy of the latest split_kv_memo_ entries, by the same key: consecutive decode
  // steps of a batch ask for the same layout, and a slot is cheaper than a hash-map lookup.
  struct ChainSlot {
    std::uint64_t key = UINT64_MAX;
    int busiest = 0;
  };
  static constexpr int kChainSlotBits = 10;
  mutable std::vector<ChainSlot> chain_slots_;
  // The same for a block table as wide as the context (a serving engine's decode), below
  // kDenseChainSequences sequences: by sequences, then context blocks; -1 = not computed yet.
  static constexpr int kDenseChainSequences = 1 << 10;
  mutable std::vector<std::vector<int>> dense_chains_;
};

}  // namespace lynxsim
