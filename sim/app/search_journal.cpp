#include "sim/app/search_journal.hpp"

#include <fstream>
#include <limits>
#include <sstream>

#include <fmt/format.h>

#include "sim/report/atomic_write.hpp"
#include "sim/scenario/input_file.hpp"

namespace lynxsim::app {
namespace {

using nlohmann::json;

// The journal may hold one line per configuration of the largest search.
constexpr std::int64_t kMaxJournalBytes = std::int64_t{1} << 30;

PointStatus status_of(const std::string& name) {
  if (name == "found") return PointStatus::found;
  if (name == "pruned") return PointStatus::pruned;
  return PointStatus::no_rate;
}

std::map<std::string, SearchOutcome> read_rows(const std::filesystem::path& file, const json& header) {
  std::map<std::string, SearchOutcome> rows;
  if (!std::filesystem::exists(file)) return rows;
  std::istringstream in(scenario::read_input_file(file, kMaxJournalBytes));
  std::string line;
  if (!std::getline(in, line) || !json::accept(line) || json::parse(line) != header) return rows;
  while (std::getline(in, line)) {
    if (!json::accept(line)) continue;
    const json row = json::parse(line);
    if (row.contains("key") && row.contains("outcome")) {
      rows[row["key"].get<std::string>()] = outcome_from_json(row["outcome"]);
    }
  }
  return rows;
}

// A double of the row; null (an infinite percentile, as JSON cannot hold it) reads as infinity.
double number(const json& j, const char* key) {
  if (!j.contains(key)) return 0.0;
  return j[key].is_number() ? j[key].get<double>() : std::numeric_limits<double>::infinity();
}

}  // namespace

json outcome_json(const SearchOutcome& o) {
  return {{"status", status_name(o.status)}, {"note", o.note},
          {"rate_per_s", o.rate.found}, {"failed_at_per_s", o.rate.failed_at}, {"capped", o.rate.capped},
          {"simulations", o.rate.simulations}, {"ttft_s", o.slo.ttft_s}, {"tpot_s", o.slo.tpot_s},
          {"attainment", o.slo.attainment}, {"mean_output_tokens", o.mean_output_tokens}, {"gpus", o.gpus},
          {"usd_per_hour", o.usd_per_hour}, {"goodput_per_gpu", o.goodput_per_gpu},
          {"usd_per_m_tokens", o.usd_per_m_tokens}, {"joules_per_token", o.joules_per_token}};
}

SearchOutcome outcome_from_json(const json& j) {
  SearchOutcome o;
  o.status = status_of(j.value("status", ""));
  o.note = j.value("note", "");
  o.rate.found = number(j, "rate_per_s");
  o.rate.failed_at = number(j, "failed_at_per_s");
  o.rate.capped = j.value("capped", false);
  o.rate.simulations = j.value("simulations", 0);
  o.slo.ttft_s = number(j, "ttft_s");
  o.slo.tpot_s = number(j, "tpot_s");
  o.slo.attainment = number(j, "attainment");
  o.slo.meets = o.status == PointStatus::found;
  o.mean_output_tokens = number(j, "mean_output_tokens");
  o.gpus = j.value("gpus", 0);
  o.usd_per_hour = number(j, "usd_per_hour");
  o.goodput_per_gpu = number(j, "goodput_per_gpu");
  o.usd_per_m_tokens = number(j, "usd_per_m_tokens");
  o.joules_per_token = number(j, "joules_per_token");
  return o;
}

SearchJournal::SearchJournal(std::filesystem::path file, const json& header)
    : file_(std::move(file)), done_(read_rows(file_, header)) {
  if (!done_.empty()) return;
  report::write_file_atomic(file_, header.dump() + "\n");
}

std::optional<SearchOutcome> SearchJournal::find(const std::string& key) const {
  const auto it = done_.find(key);
  if (it == done_.end()) return std::nullopt;
  return it->second;
}

void SearchJournal::append(const std::string& key, const SearchOutcome& outcome) {
  const std::lock_guard guard(lock_);
  std::ofstream out(file_, std::ios::app);
  out << json{{"key", key}, {"outcome", outcome_json(outcome)}}.dump() << '\n';
  out.flush();
  if (!out) throw report::ReportWriteError(fmt::format("cannot append to {}", file_.string()));
}

}  // namespace lynxsim::app
