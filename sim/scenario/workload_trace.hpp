#pragma once
// Trace replay: requests read from public LLM serving traces.
//
//   mooncake    JSON lines {"timestamp": ms since the trace start, "input_length": tokens,
//               "output_length": tokens, "hash_ids": [512-token prefix block ids]}
//               (kvcache-ai/Mooncake FAST25 traces); other keys are ignored
//   azure       CSV with header TIMESTAMP,ContextTokens,GeneratedTokens and wall-clock timestamps
//               "YYYY-MM-DD HH:MM:SS[.fraction]" (Azure LLM inference traces 2023)
//   splitwise   CSV whose header names the columns arrived_at (seconds), num_prefill_tokens and
//               num_decode_tokens, in any order among others (Splitwise / Vidur request traces)
// Trace time t is measured from the first record (azure) or taken as is (mooncake, splitwise).
// Records with t in [window_start, window_end) are kept, in file order, up to max_requests; each
// arrives at (t - window_start) * time_scale (time_scale 0.5 replays the trace twice as fast).
// Records are then sorted by arrival (stable). With repeat = n > 1 the kept requests are replayed n
// times back to back: copy k arrives k * S later, S = (window_end - window_start) * time_scale, or
// without window_end S = last arrival + the mean gap between arrivals (the load stays the same
// across the seam), with the same lengths and prefix block ids (a repeated conversation finds its
// blocks in a prefix cache);
// more than max_total_requests requests in all throws TraceError. Lengths must be integers >= 1.
// A malformed line throws TraceError "<file>:<line>: <what is wrong>"; the whole file is checked up
// to the first error.

#include <cstdint>
#include <filesystem>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "sim/core/time.hpp"
#include "sim/serving/serving_config.hpp"

namespace lynxsim::scenario {

enum class TraceFormat { mooncake, azure, splitwise };

struct TraceOptions {
  double time_scale = 1.0;
  Time window_start = Time::zero();
  std::optional<Time> window_end;
  std::optional<int> max_requests;
  bool keep_hash_ids = true;
  int repeat = 1;
  std::int64_t max_total_requests = 10'000'000;
};

class TraceError : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

std::vector<serving::RequestSpec> read_trace(const std::filesystem::path& file, TraceFormat format,
                                    const TraceOptions& options = {});

// "2023-11-16 18:17:03.9799600" -> seconds since 1970-01-01 (UTC, proleptic Gregorian);
// std::nullopt when the text is not such a timestamp.
std::optional<double> parse_wall_clock_seconds(std::string_view text);

}  // namespace lynxsim::scenario
