// `lynxsim search FILE`: the configurations of a search file (search_space.hpp), each pruned or
// searched for its highest request rate meeting the targets (search_point.hpp), on --jobs threads
// (a configuration per thread at a time; results do not depend on the number of threads), with a
// progress line per finished configuration on stderr and a journal that resumes a stopped search
// (search_journal.hpp). Writes search.csv and search.svg atomically into the results folder
// (default results/search/<name>/) and prints the Pareto front.

#include <atomic>
#include <chrono>
#include <thread>

#include <fmt/format.h>

#include "sim/app/commands.hpp"
#include "sim/app/run_energy.hpp"
#include "sim/app/search_journal.hpp"
#include "sim/app/search_plot.hpp"
#include "sim/app/search_point.hpp"
#include "sim/app/search_report.hpp"
#include "sim/app/search_space.hpp"
#include "sim/core/printable.hpp"
#include "sim/report/atomic_write.hpp"
#include "sim/report/output_path.hpp"
#include "sim/report/results_target.hpp"

namespace lynxsim::app {
namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

void check_base_workload(const scenario::SearchSpec& search, const scenario::Scenario& base) {
  if (base.resolved.at("workload").contains("synthetic")) return;
  throw scenario::ScenarioError(search.source_file,
                                {{"/base", fmt::format("the workload of {} must be \"synthetic\" (the search sets its "
                                                       "rate_per_s)", search.base.string())}});
}

// Prunes and checks every configuration before any simulation: an input error stops the search
// before it starts.
std::vector<std::optional<std::string>> precheck(const std::vector<SearchConfig>& configs, SearchContext& context) {
  std::vector<std::optional<std::string>> pruned;
  for (const SearchConfig& c : configs) {
    auto reason = prune_reason(c, context);
    if (!reason) reason = check_config(c, context);
    pruned.push_back(std::move(reason));
  }
  return pruned;
}

struct Progress {
  std::size_t total = 0;
  std::atomic<std::size_t> done{0};
  Clock::time_point start = Clock::now();
  std::mutex lock;
  void report(const SearchConfig& c, const SearchOutcome& o) {
    const std::size_t n = ++done;
    const double s = std::chrono::duration<double>(Clock::now() - start).count();
    const std::lock_guard guard(lock);
    fmt::print(stderr, "search: {}/{} ({:.0f}s) {}: {}\n", n, total, s, c.key(),
               o.status == PointStatus::found ? fmt::format("{:.4g} req/s", o.rate.found)
               : o.status == PointStatus::pruned ? "pruned: " + o.note : std::string("no rate meets the targets"));
  }
};

std::vector<SearchOutcome> run_points(const std::vector<SearchConfig>& configs,
                                      const std::vector<std::optional<std::string>>& pruned, SearchContext& context,
                                      SearchJournal& journal, int jobs) {
  std::vector<SearchOutcome> outcomes(configs.size());
  Progress progress;
  progress.total = configs.size();
  std::atomic<std::size_t> next{0};
  const auto worker = [&] {
    for (std::size_t i = next++; i < configs.size(); i = next++) {
      if (const auto resumed = journal.find(configs[i].key())) {
        outcomes[i] = *resumed;
      } else if (pruned[i]) {
        outcomes[i].status = PointStatus::pruned;
        outcomes[i].note = *pruned[i];
        journal.append(configs[i].key(), outcomes[i]);
      } else {
        outcomes[i] = evaluate_point(configs[i], context);
        journal.append(configs[i].key(), outcomes[i]);
      }
      progress.report(configs[i], outcomes[i]);
    }
  };
  std::vector<std::thread> pool;
  std::vector<std::exception_ptr> errors(static_cast<std::size_t>(jobs));
  for (int w = 0; w < jobs; ++w) {
    pool.emplace_back([&, w] {
      try {
        worker();
      } catch (...) {
        errors[static_cast<std::size_t>(w)] = std::current_exception();
        next = configs.size();
      }
    });
  }
  for (auto& t : pool) t.join();
  for (const auto& e : errors) {
    if (e) std::rethrow_exception(e);
  }
  return outcomes;
}

fs::path prepare_folder(const SearchOptions& options, const scenario::SearchSpec& search) {
  const fs::path out = options.out.value_or(fs::path("results") / "search" / search.name);
  report::check_output_path(out, "--out");
  report::check_results_target(out, options.force);
  fs::create_directories(out);
  report::write_file_atomic(out / report::kResultsManifest,
                            report::results_manifest({"journal.jsonl", "search.csv", "search.svg"}));
  return out;
}

}  // namespace

int cmd_search(const DataPaths& data, const SearchOptions& options) {
  const Clock::time_point start = Clock::now();
  const scenario::SearchSpec search = scenario::load_search(options.file, data);
  if (!fs::is_regular_file(search.base)) {
    throw scenario::ScenarioError(search.source_file,
                                  {{"/base", fmt::format("{} is not a readable scenario file", search.base.string())}});
  }
  const scenario::Scenario base = scenario::load_scenario(search.base, search.set, data);
  check_base_workload(search, base);
  SearchContext context;
  context.search = &search;
  context.base = &base;
  context.data = data;
  context.energy = bundled_energy_table(data);
  const std::vector<SearchConfig> configs = search_configs(search, base, data);
  const auto pruned = precheck(configs, context);
  const fs::path out = prepare_folder(options, search);
  SearchJournal journal(out / "journal.jsonl", {{"search", search.document}, {"base", base.resolved}});
  if (journal.resumed() > 0) fmt::print(stderr, "search: resuming, {} configurations already done\n", journal.resumed());
  std::vector<SearchOutcome> outcomes = run_points(configs, pruned, context, journal, options.jobs);
  const SearchTable table = make_search_table(configs, std::move(outcomes));
  report::write_file_atomic(out / "search.csv", search_csv(table));
  report::write_file_atomic(out / "search.svg", search_svg(table, search.name));
  const double seconds = std::chrono::duration<double>(Clock::now() - start).count();
  fmt::print("{}: {} configurations ({} pruned before simulating); Pareto front of $/hour against goodput per "
             "GPU:\n\n{}\nsearch time {:.1f}s\nresults: {}\n",
             terminal_text(search.name), configs.size(),
             std::count_if(pruned.begin(), pruned.end(), [](const auto& p) { return p.has_value(); }),
             format_search_front(table), seconds, terminal_text(out.string()));
  return 0;
}

}  // namespace lynxsim::app
