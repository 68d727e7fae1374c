#pragma once
// Work layout of a split-KV paged decode attention kernel (FlashAttention-2's flash_fwd_splitkv
// kernel, the decode path of vLLM and SGLang on NVIDIA GPUs), from which the timing model takes
// the longest chain of KV blocks that one SM has to walk.
//
// A decode batch of b sequences, each with c tokens of KV, at K = KV heads per rank has U = b * K
// work units (one per sequence and KV head; the query heads of a GQA group ride along). The KV of a
// unit is walked in blocks of B tokens (B = 128 for head_dim <= 128, 256 for head_dim <= 64, 64
// above). The block-table width W (tokens; the longest sequence the kernel is told about) gives
// n = ceil(W / B) blocks, and the kernel splits each unit's KV into s parts (Dao-AILab/flash-attention
// csrc/flash_attn/flash_api.cpp, num_splits_heuristic):
//   s = 1 when U >= 0.8 * SMs; otherwise, over the s in 1..min(128, SMs, n) whose ceil(n / s)
//   differs from ceil(n / (s - 1)), wave efficiency e(s) = w / ceil(w) with w = U * s / SMs, and
//   s is the smallest with e(s) >= 0.85 * max e.
// Split k of a unit covers blocks [k L, (k + 1) L) with L = ceil(n / s); splits past the unit's
// ceil(c / B) blocks have no work. Thread blocks are numbered unit * s + k and handed to the SMs in
// turn (block i to SM i mod SMs); an SM walks the KV blocks of all its working thread blocks one
// after another. busiest_sm_blocks is the largest such count over the SMs:
//   chain = busiest_sm_blocks * attention_block_time
// is the latency-bound time of the kernel, against which the bandwidth-bound time (KV bytes over
// HBM bandwidth at kv_read_efficiency) is the other bound (timing_model.hpp).
//
// Assumptions: every sequence of the batch has the same c (the timing model passes the batch mean),
// and the GPU's block scheduler is round-robin over the SMs. Units: tokens and blocks.

namespace lynxsim {

struct SplitKvLayout {
  int splits = 1;
  int busiest_sm_blocks = 0;
};

int split_kv_block_tokens(int head_dim);

int split_kv_splits(int units, int sm_count, int table_blocks);

// Throws std::invalid_argument unless units, sm_count and table_blocks are positive and
// context_blocks is in [0, table_blocks].
SplitKvLayout split_kv_layout(int units, int context_blocks, int table_blocks, int sm_count);

}  // namespace lynxsim
