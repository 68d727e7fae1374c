#include "sim/report/requests_csv.hpp"

#include <algorithm>
#include <cstdlib>
#include <fmt/format.h>
#include <iterator>
#include <vector>

namespace lynxsim::report {
namespace {

using serving::RequestMetrics;

constexpr std::int64_t kPsPerSecond = 1'000'000'000'000;
constexpr std::size_t kPieceBytes = std::size_t{1} << 20;

struct Widths {
  std::size_t planes = 0;
  std::size_t cachegen_levels = 0;
};

std::string header(const Widths& w) {
  std::string line =
      "method,id,context_tokens,output_tokens,arrived_at_s,prefill_start_at_s,prefill_done_at_s,"
      "decode_ready_at_s,full_kv_at_s,decode_joined_at_s,first_token_at_s,first_commit_at_s,"
      "last_token_at_s,ttft_s,ttft_commit_s,tpot_s,e2e_s,exposed_transfer_s,prefill_queue_s,"
      "decode_admission_s,ttft_speculative_s,ttdt_speculative_s,ttdt_commit_s,verifications,"
      "rollbacks,drafted_tokens,accepted_tokens,wasted_draft_tokens,retracted_tokens,committed_tokens,prefill_instance,decode_instance,cached_tokens,"
      "cache_fetch_s,memory_wait_s,kv_admission_wait_s,meets_slo,bytes_total,kv_bytes_sent,"
      "kv_bytes_wasted,kv_timeouts,reprefilled,degraded,failed,cause";
  for (std::size_t p = 0; p < w.planes; ++p) line += fmt::format(",plane{}_bytes", p);
  if (w.cachegen_levels > 0) line += ",cachegen_text_chunks";
  for (std::size_t l = 0; l < w.cachegen_levels; ++l) line += fmt::format(",cachegen_level{}_chunks", l);
  return line + "\n";
}

using Out = std::back_insert_iterator<std::string>;

void append_seconds(std::string& out, Time t) {
  const std::int64_t ps = t.ps();
  const std::uint64_t magnitude =
      ps < 0 ? static_cast<std::uint64_t>(-(ps + 1)) + 1 : static_cast<std::uint64_t>(ps);
  const auto per_s = static_cast<std::uint64_t>(kPsPerSecond);
  fmt::format_to(Out(out), "{}{}.{:012d}", ps < 0 ? "-" : "", magnitude / per_s, magnitude % per_s);
}

void append_times(std::string& out, const RequestMetrics& r) {
  const Time values[] = {r.arrived_at,       r.prefill_start_at, r.prefill_done_at,
                         r.decode_ready_at,  r.full_kv_at,       r.decode_joined_at,
                         r.first_token_at,   r.first_commit_at,  r.last_token_at,
                         r.ttft(),           r.ttft_commit(),    r.tpot(),
                         r.e2e(),            r.exposed_transfer_time(), r.prefill_queue_time(),
                         r.decode_admission_time(), r.ttft_speculative(), r.ttdt_speculative(),
                         r.ttdt_commit()};
  for (const Time t : values) {
    out += ',';
    append_seconds(out, t);
  }
}

template <class Values>
void append_counts(std::string& out, const Values& values, std::size_t width) {
  for (std::size_t i = 0; i < width; ++i) {
    out += ',';
    if (i < values.size()) fmt::format_to(Out(out), "{}", static_cast<std::int64_t>(values[i]));
  }
}

// One row appended to `out`; `method` is already a CSV field.
void append_row(std::string& out, const std::string& method, const RequestMetrics& r, const Widths& w) {
  std::int64_t total = 0;
  std::vector<std::int64_t> plane_bytes;
  for (const auto& b : r.plane_bytes) {
    total += b.value;
    plane_bytes.push_back(b.value);
  }
  fmt::format_to(Out(out), "{},{},{},{}", method, r.id, r.context_tokens, r.output_tokens);
  append_times(out, r);
  fmt::format_to(Out(out), ",{},{},{},{},{},{},{}", r.verifications, r.rollbacks, r.drafted_tokens,
                 r.accepted_tokens, r.wasted_draft_tokens, r.retracted_tokens(), r.committed_tokens);
  fmt::format_to(Out(out), ",{},{},{},", r.prefill_instance, r.decode_instance, r.cached_tokens);
  append_seconds(out, r.cache_fetch_time);
  out += ',';
  append_seconds(out, r.memory_wait_time);
  out += ',';
  append_seconds(out, r.kv_admission_wait);
  fmt::format_to(Out(out), ",{},{},{},{},{},{},{},{},{}", r.meets_slo ? 1 : 0, total,
                 r.kv_bytes_sent.value, r.kv_bytes_wasted.value, r.kv_timeouts, r.reprefilled ? 1 : 0,
                 r.degraded ? 1 : 0, r.failed() ? 1 : 0, serving::failure_cause_name(r.failure));
  append_counts(out, plane_bytes, w.planes);
  if (w.cachegen_levels > 0) {
    out += ',';
    if (!r.cachegen_chunks_per_level.empty()) fmt::format_to(Out(out), "{}", r.cachegen_text_chunks);
    append_counts(out, r.cachegen_chunks_per_level, w.cachegen_levels);
  }
  out += '\n';
}

}  // namespace

std::string exact_seconds(Time t) {
  std::string out;
  append_seconds(out, t);
  return out;
}

std::string csv_field(const std::string& text) {
  if (text.find_first_of(",\"\n\r") == std::string::npos) return text;
  std::string quoted = "\"";
  for (const char c : text) {
    if (c == '"') quoted += '"';
    quoted += c;
  }
  return quoted + "\"";
}

void write_requests_csv(std::span<const serving::MethodResult> results,
                        const std::function<void(std::string_view)>& sink) {
  Widths w;
  for (const auto& result : results) {
    for (const auto& r : result.requests) {
      w.planes = std::max(w.planes, r.plane_bytes.size());
      w.cachegen_levels = std::max(w.cachegen_levels, r.cachegen_chunks_per_level.size());
    }
  }
  std::string out = header(w);
  for (const auto& result : results) {
    const std::string method = csv_field(result.method.name);
    for (const auto& r : result.requests) {
      append_row(out, method, r, w);
      if (out.size() >= kPieceBytes) {
        sink(out);
        out.clear();
      }
    }
  }
  sink(out);
}

std::string requests_csv(std::span<const serving::MethodResult> results) {
  std::string csv;
  write_requests_csv(results, [&csv](std::string_view piece) { csv += piece; });
  return csv;
}

}  // namespace lynxsim::report
