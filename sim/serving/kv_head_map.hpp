#pragma once
// Which KV heads each tensor-parallel rank holds, and which rank-to-rank flows move a request's KV
// from a prefill instance of TP t_p to a decode instance of TP t_d.
//
// Heads of a rank, with n KV heads and TP t (what vLLM and SGLang do; they require t and n to divide
// one another, the general case below reduces to theirs there):
//   t <= n   rank r holds the contiguous heads h with floor(h * t / n) = r  (n / t heads each)
//   t >  n   rank r holds the one head floor(r * n / t): every head is replicated t / n times
//
// Flows. Each decode rank receives every head it holds exactly once. Head h is held by the prefill
// ranks P_h (in rank order, |P_h| = max(1, t_p / n)) and needed by the decode ranks D_h; the j-th
// decode rank of D_h gets it from P_h[j mod |P_h|], so replicas share the sending. All heads going
// from one prefill rank to one decode rank form one flow (per plane and piece) of those heads' bytes.
// Summed over flows, the heads sent are sum_d |heads(d)| = n * max(1, t_d / n): replicated heads are
// sent to every decode rank that needs them. Examples with n = 8:
//   1 -> 8    8 flows (0 -> d), 1 head each        8 -> 1    8 flows (p -> 0), 1 head each
//   2 -> 4    4 flows (d / 2 -> d), 2 heads each   8 -> 8    8 flows (p -> p), 1 head each
//   16 -> 16  16 flows (p -> p), 1 head each: 16 heads, twice the model's KV

#include <vector>

namespace lynxsim::serving {

struct HeadFlow {
  int src_rank = 0;
  int dst_rank = 0;
  int heads = 0;
};

// The KV heads held by `rank` of a TP group of `tp` ranks, in increasing order.
std::vector<int> rank_kv_heads(int num_kv_heads, int tp, int rank);

// Flows from a TP group of src_tp ranks to one of dst_tp ranks, ordered by (src_rank, dst_rank).
// Throws std::invalid_argument when a count is below 1.
std::vector<HeadFlow> kv_head_flows(int num_kv_heads, int src_tp, int dst_tp);

}  // namespace lynxsim::serving
