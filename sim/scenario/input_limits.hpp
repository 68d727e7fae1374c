#pragma once
// The bounds a scenario's values must respect, so that every accepted scenario fits lynxsim's
// integer types and clock and its size is known before anything runs (docs/scenario.md, "Limits").
// Each bound is far above what a real deployment uses; a value outside one is an error with its
// JSON path (exit code 2), never a silent narrowing or wrap.

#include <cstddef>
#include <cstdint>

#include "sim/core/time.hpp"
#include "sim/fields/object_reader.hpp"

namespace lynxsim::scenario {

inline constexpr std::int64_t kMaxTokensPerRequest = 1 << 24;      // context or output tokens
inline constexpr std::int64_t kMaxRequests = 10'000'000;            // requests of one workload
inline constexpr std::int64_t kMaxTraceRepeat = 1000;               // workload.trace.repeat
inline constexpr std::int64_t kMaxTensorParallel = 1024;
inline constexpr std::int64_t kMaxInstancesPerGroup = 4096;
inline constexpr std::int64_t kMaxDecodeBatch = 1 << 20;
inline constexpr std::int64_t kMaxBatchTokens = 1 << 26;            // prefill_batch_tokens
inline constexpr std::int64_t kMaxDraftTokens = 4096;
inline constexpr std::int64_t kMaxLayersPerFlow = 4096;
inline constexpr std::int64_t kMaxBlockTokens = 1 << 20;            // prefix-cache and chunk sizes
inline constexpr std::int64_t kMaxGroupSize = 1 << 20;              // quantization groups, windows
inline constexpr std::int64_t kMaxPlaneBits = 16;
inline constexpr std::int64_t kMaxCacheGenLevel = 64;
inline constexpr std::int64_t kMaxFaultOutages = 1'000'000;        // outages of one network.faults item
inline constexpr double kMaxFaultRate = 1000.0;                      // failures_per_s
inline constexpr std::int64_t kMaxTransferRetries = 1000;          // serving.kv_transfer_retries
using fields::kMaxNameLength;  // names (presets, methods, hosts)

// The size of what a run builds and creates (resource_estimate.hpp). A topology of 2^20 hosts
// takes about 1 GB and 15 s to build; instances and GPUs per role over all groups are bounded by
// one largest group (kMaxInstancesPerGroup x kMaxTensorParallel GPUs).
inline constexpr std::int64_t kMaxHosts = 1 << 20;
inline constexpr std::int64_t kMaxLinks = 1 << 22;
inline constexpr std::int64_t kMaxInstancesPerRole = 65'536;
inline constexpr std::int64_t kMaxRanksPerRole = kMaxInstancesPerGroup * kMaxTensorParallel;
// KV, store and background flows of a run, all methods together: over 200 times the largest
// bundled scenario's bound (a Mooncake hour with a prefix cache: at most 1.2 million).
inline constexpr std::int64_t kMaxFlows = 1 << 28;
// Events of a trace (`--trace-limit`, default and largest value): a kept event takes 80 to 160
// bytes of trace.json and at most twice that of memory (2 million: a 196 MB file, 400 MB peak).
inline constexpr std::int64_t kDefaultTraceEvents = 2'000'000;
inline constexpr std::int64_t kMaxTraceEvents = 50'000'000;
// The last arrival; with kMaxTimeSeconds-long durations the clock keeps > 40 days of headroom.
inline constexpr Time kMaxArrival = Time::from_seconds(30.0 * 86400.0);
// The longest a lone flow may take on the slowest link (transfer_bound.cpp): with the last arrival
// it leaves the clock more than 40 days for queueing.
inline constexpr Time kMaxTransferTime = kMaxArrival;

}  // namespace lynxsim::scenario
