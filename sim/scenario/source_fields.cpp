// The key tables of the generated workload forms (trace replay, synthetic arrivals, length
// distributions) and of a method object (field_table.hpp).

#include <array>

#include "sim/scenario/field_tables.hpp"

// Designated initializers leave the other members at their defaults on purpose; GCC 12 still warns.
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"

namespace lynxsim::scenario {
namespace {

using T = FieldType;
constexpr const char* kPresets = "the preset's";

constexpr std::array kTrace{
    Field{.key = "file", .type = T::text, .doc = "the trace, relative to the scenario's folder",
          .required = true},
    Field{.key = "format", .type = T::choice, .doc = "the trace's publisher",
          .choices = "mooncake|azure|splitwise", .required = true},
    Field{.key = "time_scale", .type = T::number,
          .doc = "records in [window_start, window_end) arrive at (t - window_start) * time_scale",
          .default_json = "1", .min = 0, .max = 1e9, .open_min = true},
    Field{.key = "rate_scale", .type = T::number,
          .doc = "instead of `time_scale`: replays the trace at r times its load "
                 "(time_scale = 1 / r)",
          .default_doc = "none", .min = 0, .max = 1e9, .open_min = true},
    Field{.key = "window_start", .type = T::duration, .doc = "start of the replayed window",
          .default_json = "\"0s\"", .min = 0},
    Field{.key = "window_end", .type = T::duration, .doc = "end of the replayed window",
          .default_doc = "the trace's end", .min = 1},
    Field{.key = "max_requests", .type = T::integer, .doc = "the first N records of the window",
          .default_doc = "all", .min = 1, .max = kRequestsBound},
    Field{.key = "keep_hash_ids", .type = T::boolean,
          .doc = "keep Mooncake's prefix block ids (a prefix cache needs them)",
          .default_json = "true"},
    Field{.key = "repeat", .type = T::integer,
          .doc = "replays the window n times back to back, copy k shifted by k * (window_end - "
                 "window_start) * time_scale (without `window_end`, by the last arrival plus the "
                 "mean gap), with the same prompts and prefix block ids",
          .default_json = "1", .min = 1, .max = kMaxTraceRepeat},
};

constexpr std::array kSynthetic{
    Field{.key = "process", .type = T::choice,
          .doc = "a renewal process: exponential gaps, or gamma gaps whose squared coefficient "
                 "of variation is `burstiness`",
          .default_json = "\"poisson\"", .choices = "poisson|gamma"},
    Field{.key = "rate_per_s", .type = T::number,
          .doc = "requests per second of simulated time (a bare number)", .min = 0, .max = 1e12,
          .required = true, .open_min = true},
    Field{.key = "burstiness", .type = T::number, .doc = "squared coefficient of variation of gaps",
          .default_json = "1", .min = 1e-6, .max = 1e6},
    Field{.key = "count", .type = T::integer, .doc = "stop after this many requests",
          .default_doc = "`duration` bounds", .min = 1, .max = kRequestsBound},
    Field{.key = "duration", .type = T::duration, .doc = "stop at `start + duration`",
          .default_doc = "`count` bounds", .min = 1},
    Field{.key = "start", .type = T::duration, .doc = "the process starts", .default_json = "\"0s\"",
          .min = 0},
    Field{.key = "context", .doc = "a length (below)", .required = true},
    Field{.key = "output", .doc = "a length (below)", .required = true},
};

constexpr std::array kClosedLoop{
    Field{.key = "concurrency", .type = T::integer,
          .doc = "requests in flight at most (vllm bench serve --max-concurrency)", .min = 1,
          .max = kRequestsBound, .required = true},
    Field{.key = "count", .type = T::integer, .doc = "requests in all (--num-prompts)",
          .default_doc = "the trace's requests with `lengths_from`, else required", .min = 1,
          .max = kRequestsBound},
    Field{.key = "rate_per_s", .type = T::number,
          .doc = "requests become ready at this mean rate (--request-rate; a bare number)",
          .default_doc = "inf: all ready at 0", .min = 0, .max = 1e12, .open_min = true},
    Field{.key = "burstiness", .type = T::number,
          .doc = "--burstiness: the shape of the gamma gaps (1 Poisson, < 1 burstier)",
          .default_json = "1", .min = 1e-6, .max = 1e6},
    Field{.key = "think_time", .type = T::duration,
          .doc = "a slot is free again this long after its request finishes", .default_json = "\"0s\"",
          .min = 0},
    Field{.key = "context", .doc = "a length (below)", .default_doc = "required without `lengths_from`"},
    Field{.key = "output", .doc = "a length (below)", .default_doc = "required without `lengths_from`"},
    Field{.key = "lengths_from", .doc = "a `trace` object (above): its lengths in trace order",
          .default_doc = "none"},
};

constexpr std::array kLength{
    Field{.key = "kind", .type = T::choice, .doc = "the distribution",
          .choices = "fixed|uniform|lognormal|empirical", .required = true},
    Field{.key = "value", .type = T::integer, .doc = "`fixed`: the length (required)",
          .default_doc = "–", .min = 1, .max = kTokensBound},
    Field{.key = "median", .type = T::number, .doc = "`lognormal`: the median length (or `mu`)",
          .default_doc = "–", .min = 1, .max = 1e12},
    Field{.key = "mu", .type = T::number, .doc = "`lognormal`: the mean of log(length)",
          .default_doc = "–", .min = -1e3, .max = 1e3},
    Field{.key = "sigma", .type = T::number, .doc = "`lognormal`: the deviation of log(length) "
                                                   "(required)",
          .default_doc = "–", .min = 0, .max = 100},
    Field{.key = "file", .type = T::text,
          .doc = "`empirical`: one length per line, relative to the scenario's folder (required)",
          .default_doc = "–"},
    Field{.key = "min", .type = T::integer, .doc = "draws below are clamped up",
          .default_json = "1", .min = 1, .max = kTokensBound},
    Field{.key = "max", .type = T::integer, .doc = "draws above are clamped down",
          .default_json = "16777216", .min = 1, .max = kTokensBound},
};

constexpr std::array kMethod{
    Field{.key = "preset", .type = T::name, .doc = "the preset whose fields the object overrides",
          .required = true},
    Field{.key = "name", .type = T::name, .doc = "unique within the scenario", .default_doc = kPresets},
    Field{.key = "bits", .type = T::integer, .doc = "bits of the quantized code",
          .default_doc = "the preset's, or the sum of `planes`", .min = 1, .max = kMaxPlaneBits},
    Field{.key = "planes",
          .doc = "non-empty array of plane widths in bits (1..16), anchor first; only lynx "
                 "methods have several",
          .default_doc = kPresets},
    Field{.key = "decode_after_planes", .type = T::integer,
          .doc = "planes decode waits for (only lynx methods start before all)",
          .default_doc = kPresets, .min = 1, .max = kMaxPlaneBits},
    Field{.key = "group_size", .type = T::integer, .doc = "values per quantization group (0 = head dim)",
          .default_doc = kPresets, .min = 0, .max = kMaxGroupSize},
    Field{.key = "kivi_window", .type = T::integer, .doc = "KIVI: recent tokens kept in 16-bit",
          .default_doc = kPresets, .min = 0, .max = kMaxGroupSize},
    Field{.key = "kivi_group", .type = T::integer, .doc = "KIVI: tokens per key group",
          .default_doc = kPresets, .min = 1, .max = kMaxGroupSize},
    Field{.key = "anchor_scheme", .type = T::choice,
          .doc = "how an anchor is decoded before its residual (cell_residual: lynx-nvfp4's nvfp4 anchor and "
                 "4-bit cell residual)",
          .default_doc = kPresets, .choices = "midpoint|quantspec|cell_residual"},
    Field{.key = "cachegen_level", .type = T::integer, .doc = "CacheGen's fixed quality level",
          .default_doc = kPresets, .min = 0, .max = kMaxCacheGenLevel},
    Field{.key = "tensor_scale",
          .doc = "per-tensor FP8 formats: a positive number (the fixed scale; 1.0 is vLLM's default) or "
                 "`\"amax\"` (calibrated: the tensor's absolute maximum / the format's largest value); nvfp4 "
                 "always takes amax / (6·448)",
          .default_doc = "`1.0`"},
    Field{.key = "acceptance", .type = T::number, .doc = "draft acceptance of a speculative method",
          .default_doc = "measured", .min = 0, .max = 1},
    Field{.key = "description", .type = T::text, .doc = "free text", .default_doc = kPresets},
    Field{.key = "cachegen", .doc = "CacheGen's adaptation and coder costs (below)",
          .default_doc = "all defaults"},
};

constexpr std::array kCacheGen{
    Field{.key = "chunk_tokens", .type = T::integer,
          .doc = "tokens per chunk; each chunk gets its own quality level", .default_json = "1500",
          .min = 1, .max = kMaxBlockTokens},
    Field{.key = "slo", .type = T::duration,
          .doc = "time budget of the whole KV transfer; a chunk gets the time left over the chunks "
                 "left",
          .default_json = "\"1s\"", .min = 1},
    Field{.key = "initial_bandwidth", .type = T::rate, .doc = "bandwidth assumed for the first chunk",
          .default_json = "\"100Gbps\""},
    Field{.key = "encode_throughput", .type = T::rate,
          .doc = "BF16 bytes encoded per second per prefill GPU", .default_json = "\"30GB/s\""},
    Field{.key = "decode_throughput", .type = T::rate,
          .doc = "BF16 bytes decoded per second per decode GPU", .default_json = "\"20GB/s\""},
};

}  // namespace

std::span<const Field> workload_trace_fields() { return kTrace; }
std::span<const Field> workload_synthetic_fields() { return kSynthetic; }
std::span<const Field> workload_closed_loop_fields() { return kClosedLoop; }
std::span<const Field> length_fields() { return kLength; }
std::span<const Field> method_fields() { return kMethod; }
std::span<const Field> cachegen_fields() { return kCacheGen; }

}  // namespace lynxsim::scenario
