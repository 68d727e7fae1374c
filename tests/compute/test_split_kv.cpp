#include <doctest/doctest.h>

#include <stdexcept>

#include "sim/compute/split_kv.hpp"

namespace lynxsim {

TEST_CASE("the KV block follows the head size as FlashAttention-2's split kernel does") {
  CHECK(split_kv_block_tokens(64) == 256);
  CHECK(split_kv_block_tokens(128) == 128);
  CHECK(split_kv_block_tokens(256) == 64);
}

TEST_CASE("no split once the work units fill 80% of the SMs") {
  CHECK(split_kv_splits(88, 108, 32) == 1);   // 88 >= 86.4
  CHECK(split_kv_splits(84, 108, 32) > 1);    // 84 <  86.4
}

TEST_CASE("the split count is the smallest within 85% of the best wave efficiency") {
  // 16 units, 32 blocks: eligible s = 1..8, 11, 16, 32; s = 32 gives 4.74 waves (0.95), so the
  // threshold is 0.805 and s = 6 (96 / 108 = 0.89) is the first to reach it.
  CHECK(split_kv_splits(16, 108, 32) == 6);
  // 4 units: the best is 0.59 (s = 16 and 32), s = 16 is the first within 85% of it.
  CHECK(split_kv_splits(4, 108, 32) == 16);
}

TEST_CASE("the busiest SM walks the blocks of every working thread block it is handed") {
  // 64 units split 3 ways (192 thread blocks); with 8 context blocks only split 0 of each unit
  // works (11 blocks per split), thread blocks 0, 3, ..., 189: SMs 0, 3, ..., 81 get two.
  const SplitKvLayout a = split_kv_layout(64, 8, 32, 108);
  CHECK(a.splits == 3);
  CHECK(a.busiest_sm_blocks == 16);
  // Without split, ceil(units / SMs) units per SM walk the whole context.
  const SplitKvLayout b = split_kv_layout(128, 10, 32, 108);
  CHECK(b.splits == 1);
  CHECK(b.busiest_sm_blocks == 20);
  // 4 units, 16 splits of 2 blocks each: 32 context blocks fill all 64 thread blocks, one per SM.
  CHECK(split_kv_layout(4, 32, 32, 108).busiest_sm_blocks == 2);
}

TEST_CASE("a split-KV layout refuses impossible shapes") {
  CHECK_THROWS_AS(split_kv_layout(0, 1, 1, 108), std::invalid_argument);
  CHECK_THROWS_AS(split_kv_layout(1, 2, 1, 108), std::invalid_argument);
  CHECK_THROWS_AS(split_kv_layout(1, 1, 1, 0), std::invalid_argument);
}

}  // namespace lynxsim
