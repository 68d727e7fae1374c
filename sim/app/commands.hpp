#pragma once
// The subcommands of the lynxsim CLI, each a function that prints to stdout and returns an exit
// code; input errors are thrown (cli.cpp turns them into exit code 2).

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "sim/app/data_paths.hpp"
#include "sim/app/trace_filter.hpp"
#include "sim/compute/estimate.hpp"
#include "sim/compute/expert_parallel.hpp"

namespace lynxsim::app {

struct RunOptions {
  std::filesystem::path scenario;
  std::optional<std::string> scenario_text;  // the scenario's JSON instead of a file (Python dicts)
  std::optional<std::filesystem::path> out;
  std::vector<std::string> overrides;
  std::optional<std::uint64_t> seed;
  bool trace = false;
  std::int64_t trace_limit = 0;  // events kept in trace.json (cli.cpp sets the default)
  TraceFilterText trace_filter;
  bool progress = false;         // the progress line on stderr even when it is not a terminal
  bool quiet = false;
  bool force = false;
  bool wide = false;
  bool percentiles = false;
  std::optional<std::string> memory_limit;  // --memory-limit (memory_limit.hpp)
  bool signal_cleanup = true;  // staging removed on SIGINT/SIGTERM (off where Python owns signals)
};

// `lynxsim validate FILE`: the checks of a run (scenario_check.hpp), with the run's --trace.
struct ValidateOptions {
  std::filesystem::path file;
  std::optional<std::string> text;  // the scenario's JSON instead of a file (Python dicts)
  std::vector<std::string> overrides;
  bool trace = false;
  std::int64_t trace_limit = 0;
  TraceFilterText trace_filter;
  std::optional<std::string> memory_limit;
};

struct EstimateOptions {
  std::string model;
  std::string gpu;
  int context = 0;
  int batch = 1;
  int tp = 1;
  int prefill_attention_dp = 0;
  int decode_attention_dp = 0;
  int expert_parallel = 0;
  double expert_load_imbalance = kEplbLoadImbalance;
  std::string engine = "vllm";  // a configs/engines profile, or "none"
  int output = 0;
  bool json = false;
};

struct AccuracyOptions {
  std::string model;
  int context = 0;
  std::vector<std::string> methods;
  std::optional<std::filesystem::path> kv_file;
  std::uint64_t seed = 1;
  bool json = false;
  bool no_cache = false;
  bool progress = false;  // the progress line even when stderr is not a terminal
  std::optional<std::string> memory_limit;
  // Real models only (smollm2-135m, gemma3-270m):
  std::optional<std::filesystem::path> text;  // default: the bundled essay
  bool passkey_in_text = false;               // passkey at --context in the text (else 512-2048 filler)
  bool no_passkey = false;
  int continuation = 256;                     // scored tokens after the prompt
  int samples = 4;                            // draft windows per speculative method
};

struct CalibrateOptions {
  std::string model = "smollm2-135m";
  std::vector<int> contexts{1024, 4096};
  std::vector<std::string> methods{"lynx", "lynx-3+5", "lynx-2+6", "lynx-2+2+4", "lynx-qs"};
  int samples = 48;
  int stride = 16;
  std::uint64_t seed = 1;
  std::optional<std::filesystem::path> out;
  bool force = false;  // replace an existing --out
};

struct LlmLogitsOptions {
  std::optional<std::filesystem::path> model;
  std::string prompt;
  std::filesystem::path out;
  bool force = false;  // replace an existing --out
  int threads = 1;
};

// `lynxsim bench WHAT`; the network settings apply to `bench network` only (unset: its defaults).
struct BenchOptions {
  std::string what;
  std::optional<double> tolerance;
  std::optional<std::string> quantum;  // a time with its unit, e.g. "10us"
  std::optional<std::uint64_t> arrivals;
  std::optional<std::uint64_t> concurrent;
  std::optional<int> context;
  std::optional<int> decode;
  std::optional<int> threads;
  std::optional<std::vector<std::int64_t>> sizes;
  std::optional<int> closed_loop;
  std::optional<std::string> isa;  // kernels: portable or avx2
};

// calibrate-timing: the timing model against the public measurements in data/calibration/timing/.
struct CalibrateTimingOptions {
  std::filesystem::path data;  // a CSV file or a folder of them; empty: the bundled set
  bool fit = false;            // fit the GPU constants on the calibration points, print them
};

// `lynxsim flows FILE --network NETWORK`: an explicit flow list through the flow network alone.
struct FlowsOptions {
  std::filesystem::path file;
  std::string network;  // a network JSON file or a preset name of configs/topologies/
  std::optional<std::filesystem::path> out;
  bool force = false;  // replace an existing --out
  std::uint64_t seed = 1;
};

// `lynxsim replay RESULT --scenario FILE`: a real benchmark run against the simulated deployment.
struct ReplayOptions {
  std::filesystem::path result;    // store::read_benchmark_result's formats
  std::filesystem::path scenario;  // the deployment; its workload is replaced by the run's
  std::vector<std::string> overrides;
  bool json = false;
};

// `lynxsim search FILE`: the cheapest configurations meeting a search file's targets (cmd_search.cpp).
struct SearchOptions {
  std::filesystem::path file;
  std::optional<std::filesystem::path> out;
  bool force = false;
  int jobs = 1;  // configurations searched at once (cli.cpp sets the default: the machine's cores)
};

int cmd_run(const DataPaths& data, const RunOptions& options);
int cmd_search(const DataPaths& data, const SearchOptions& options);
int cmd_replay(const DataPaths& data, const ReplayOptions& options);
int cmd_validate(const DataPaths& data, const ValidateOptions& options);
int cmd_list(const DataPaths& data);
// `lynxsim keys [TABLE]`: the key tables of a scenario file (all, or the one named), as
// docs/scenario.md shows them; an unknown table name is an input error.
int cmd_keys(const std::string& table);
int cmd_estimate(const DataPaths& data, const EstimateOptions& options);
// The estimate cmd_estimate prints (the Python module's estimate() too); bad options: InputError.
Estimate run_estimate(const DataPaths& data, const EstimateOptions& options);
int cmd_accuracy(const DataPaths& data, const AccuracyOptions& options);
int cmd_calibrate(const DataPaths& data, const CalibrateOptions& options);
int cmd_bench(const DataPaths& data, const BenchOptions& options);
int cmd_calibrate_timing(const DataPaths& data, const CalibrateTimingOptions& options);
int cmd_llm_logits(const DataPaths& data, const LlmLogitsOptions& options);
int cmd_flows(const DataPaths& data, const FlowsOptions& options);

}  // namespace lynxsim::app
