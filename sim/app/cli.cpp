#include "sim/app/cli.hpp"

#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <limits>
#include <thread>

#include "sim/app/commands.hpp"
#include "sim/app/input_errors.hpp"
#include "sim/core/build_info.hpp"
#include "sim/scenario/input_limits.hpp"

namespace lynxsim::app {
namespace {

// The most threads a --threads option may ask for: far above any core count this program uses
// well, and low enough that the threads' stacks (8 MiB of address space each) stay bounded.
constexpr int kMaxThreads = 1024;

struct Parsed {
  RunOptions run;
  ValidateOptions validate;
  EstimateOptions estimate;
  AccuracyOptions accuracy;
  CalibrateOptions calibrate;
  CalibrateTimingOptions calibrate_timing;
  BenchOptions bench;
  LlmLogitsOptions llm_logits;
  FlowsOptions flows;
  ReplayOptions replay;
  SearchOptions search;
  std::string keys_table;
  std::optional<std::filesystem::path> data_dir;
  std::optional<std::filesystem::path> cache_dir;
};

// A seed is a whole number from 0 to 2^63 - 1 (a scenario's "seed" key holds the same range);
// checked on the text, before CLI11 converts it, so "-1" is refused rather than wrapped.
bool is_seed(const std::string& text) {
  if (text.empty() || text.find_first_not_of("0123456789") != std::string::npos) return false;
  const std::size_t first = text.find_first_not_of('0');
  const std::string value = first == std::string::npos ? "0" : text.substr(first);
  const std::string max = std::to_string(std::numeric_limits<std::int64_t>::max());
  return value.size() < max.size() || (value.size() == max.size() && value <= max);
}

CLI::Validator seed_range() {
  return CLI::Validator(
      [](const std::string& text) -> std::string {
        if (is_seed(text)) return {};
        return fmt::format("\"{}\" is not a seed: a whole number from 0 to {}", text,
                           std::numeric_limits<std::int64_t>::max());
      },
      "SEED");
}

void add_trace_options(CLI::App& app, std::int64_t& limit, TraceFilterText& filter,
                       CLI::Option* trace) {
  limit = scenario::kDefaultTraceEvents;
  app.add_option("--trace-limit", limit,
                 fmt::format("events kept in trace.json (default {}); a run that records more "
                             "keeps the first ones and marks the trace truncated",
                             scenario::kDefaultTraceEvents))
      ->check(CLI::Range(std::int64_t{1}, scenario::kMaxTraceEvents))
      ->needs(trace);
  app.add_option("--trace-window", filter.window,
                 "trace only START:END, in seconds of simulated time (e.g. 100:400, or 100:)")
      ->needs(trace);
  app.add_option("--trace-requests", filter.requests,
                 "trace only these request ids: ids and ranges, comma-separated (e.g. 0-99,150)")
      ->needs(trace);
  app.add_option("--trace-methods", filter.methods,
                 "trace only these methods, comma-separated (e.g. int8,lynx)")
      ->needs(trace);
  app.add_option("--trace-links", filter.links,
                 "link utilisation counters of the N busiest links only (default 0: every link "
                 "that carried traffic)")
      ->check(CLI::Range(std::int64_t{0}, std::int64_t{1} << 22))
      ->needs(trace);
}

void add_memory_limit(CLI::App& app, std::optional<std::string>& limit) {
  app.add_option("--memory-limit", limit,
                 "refuse to start when the estimated peak memory exceeds this size, e.g. 16GiB "
                 "(default: this machine's memory, or ulimit -v when lower)");
}

void add_run_options(CLI::App& app, Parsed& p) {
  app.add_option("--scenario", p.run.scenario, "scenario file to run");
  app.add_option("--out", p.run.out, "results folder (default results/runs/<scenario name>/)");
  app.add_flag("--force", p.run.force,
               "replace --out even when it exists and is not a lynxsim results folder");
  app.add_option("--set", p.run.overrides, "override a field: path=value, e.g. network.bandwidth=10Gbps");
  app.add_option("--seed", p.run.seed, "random seed (overrides the scenario's)")->check(seed_range());
  app.add_flag("--wide", p.run.wide, "the table with every column (E2E, all baselines and metrics)");
  app.add_flag("--percentiles", p.run.percentiles, "the table with p50, p90 and p99 of the client's TTFT");
  add_trace_options(app, p.run.trace_limit, p.run.trace_filter,
                    app.add_flag("--trace", p.run.trace, "also write trace.json (Chrome trace-event format)"));
  app.add_flag("--progress", p.run.progress,
               "a progress line with ETA on stderr even when stderr is not a terminal");
  app.add_flag("--quiet", p.run.quiet, "print only the results folder");
  add_memory_limit(app, p.run.memory_limit);
}

void add_calibrate(CLI::App& app, CalibrateOptions& o) {
  auto* cal = app.add_subcommand("calibrate-acceptance",
                                 "measure a real model's draft acceptance and fit the proxy's calibration");
  cal->add_option("--model", o.model, "real model: smollm2-135m or gemma3-270m")
      ->check(CLI::IsMember({"smollm2-135m", "gemma3-270m"}));
  cal->add_option("--contexts", o.contexts, "context lengths in tokens")->delimiter(',')->check(CLI::Range(64, 32768));
  cal->add_option("--methods", o.methods, "speculative methods")->delimiter(',');
  cal->add_option("--samples", o.samples, "draft windows per method and context")->check(CLI::Range(1, 1024));
  cal->add_option("--stride", o.stride, "tokens between draft windows")->check(CLI::Range(1, 1024));
  cal->add_option("--seed", o.seed, "random seed")->check(seed_range());
  cal->add_option("--out", o.out, "calibration file (default data/calibration/<smollm2|gemma3>-acceptance.json)");
  cal->add_flag("--force", o.force, "replace --out when it exists (the default file is always replaced)");
}

void add_bench(CLI::App& app, BenchOptions& o) {
  auto* bench = app.add_subcommand("bench", "benchmarks: kernels, network, serving, llm");
  bench->add_option("what", o.what, "kernels, network, serving or llm")->required();
  bench->add_option("--tolerance", o.tolerance, "network: relative rate tolerance")
      ->check(CLI::Range(1e-12, 1e-2));
  bench->add_option("--quantum", o.quantum, "network: rate recomputation quantum, e.g. 10us or 0s");
  bench->add_option("--arrivals", o.arrivals, "network: flows started in total")
      ->check(CLI::PositiveNumber);
  bench->add_option("--concurrent", o.concurrent, "network: flows in flight")
      ->check(CLI::PositiveNumber);
  bench->add_option("--context", o.context, "llm: prompt tokens (default 1024)")->check(CLI::PositiveNumber);
  bench->add_option("--decode", o.decode, "llm: tokens decoded (default 64)")->check(CLI::PositiveNumber);
  bench->add_option("--threads", o.threads, "llm: threads (default 2)")->check(CLI::Range(1, kMaxThreads));
  bench->add_option("--sizes", o.sizes, "serving: trace lengths in requests (default 10000,100000,1000000)")
      ->delimiter(',')
      ->check(CLI::Range(std::int64_t{1}, std::int64_t{100'000'000}));
  bench->add_option("--closed-loop", o.closed_loop,
                    "serving: the longer traces sent by a client capped at this many in flight")
      ->check(CLI::Range(1, 10'000'000));
  bench->add_option("--isa", o.isa, "kernels: instruction set of the optimized kernels (portable or avx2; "
                                    "default: the widest this CPU has)");
}

void add_flows(CLI::App& app, FlowsOptions& o) {
  auto* flows = app.add_subcommand("flows", "run a list of flows (JSON or CSV) through the network alone");
  flows->add_option("file", o.file, "flow list: .json, or CSV with a header")->required();
  flows->add_option("--network", o.network, "network JSON file or preset name")->required();
  flows->add_option("--out", o.out, "also write the completion times to this CSV file");
  flows->add_flag("--force", o.force, "replace --out when it exists");
  flows->add_option("--seed", o.seed, "random seed (ECMP hashing, background senders)")->check(seed_range());
}

void add_search(CLI::App& app, SearchOptions& o) {
  auto* search = app.add_subcommand("search", "the highest request rate meeting a search file's targets for "
                                              "each configuration, its cost, and the Pareto front");
  search->add_option("file", o.file, "search file (docs/search.md)")->required();
  search->add_option("--out", o.out, "results folder (default results/search/<name>/); a stopped search "
                                     "resumes from its journal there");
  search->add_flag("--force", o.force, "write into --out even when it is not a lynxsim results folder");
  o.jobs = std::max(1, static_cast<int>(std::thread::hardware_concurrency()));
  search->add_option("--jobs", o.jobs, "configurations searched at once (default: the machine's cores)")
      ->check(CLI::Range(1, kMaxThreads));
}

void add_subcommands(CLI::App& app, Parsed& p) {
  auto* validate = app.add_subcommand("validate", "check a scenario file and print its errors");
  validate->add_option("file", p.validate.file, "scenario file")->required();
  validate->add_option("--set", p.validate.overrides, "override a field: path=value");
  add_trace_options(*validate, p.validate.trace_limit, p.validate.trace_filter,
                    validate->add_flag("--trace", p.validate.trace, "check as a run with --trace would"));
  add_memory_limit(*validate, p.validate.memory_limit);
  app.add_subcommand("list", "list models, hardware and transfer methods");
  app.add_subcommand("keys", "print the key tables of a scenario file (docs/scenario.md)")
      ->add_option("table", p.keys_table, "one table (scenario, serving, workload-trace, ...)");
  auto* est = app.add_subcommand("estimate", "roofline timing of prefill and decode");
  est->add_option("--model", p.estimate.model, "model card name")->required();
  est->add_option("--gpu", p.estimate.gpu, "hardware profile name")->required();
  const CLI::Range tokens(std::int64_t{1}, scenario::kMaxTokensPerRequest);
  est->add_option("--context", p.estimate.context, "context tokens")->required()->check(tokens);
  est->add_option("--batch", p.estimate.batch, "decode batch size")
      ->check(CLI::Range(std::int64_t{1}, scenario::kMaxDecodeBatch));
  est->add_option("--tp", p.estimate.tp, "tensor-parallel degree")
      ->check(CLI::Range(std::int64_t{1}, scenario::kMaxTensorParallel));
  est->add_option("--prefill-attention-dp", p.estimate.prefill_attention_dp,
                  "attention data-parallel ranks of the prefill instance (default: as a scenario's)")
      ->check(CLI::PositiveNumber);
  est->add_option("--decode-attention-dp", p.estimate.decode_attention_dp,
                  "attention data-parallel ranks of the decode instance (default: as a scenario's)")
      ->check(CLI::PositiveNumber);
  est->add_option("--expert-parallel", p.estimate.expert_parallel,
                  "GPUs the routed experts are spread over: 1 or tp (default: as a scenario's)")
      ->check(CLI::PositiveNumber);
  est->add_option("--expert-load-imbalance", p.estimate.expert_load_imbalance,
                  "busiest expert-parallel rank's routed tokens over the mean (default 1.11)")
      ->check(CLI::Range(1.0, 64.0));
  est->add_option("--output", p.estimate.output,
                  "also time a static batch run: --batch prompts of --context tokens, each "
                  "generating this many tokens")
      ->check(tokens);
  est->add_option("--engine", p.estimate.engine,
                  "serving-engine profile of configs/engines (default vllm), or none for the GPU "
                  "profile's own layer and step overheads");
  est->add_flag("--json", p.estimate.json, "print JSON");
  auto* acc = app.add_subcommand("accuracy", "measure the precision of each transfer method");
  acc->add_option("--model", p.accuracy.model, "model card name")->required();
  acc->add_option("--context", p.accuracy.context, "context tokens")->required();
  acc->add_option("--methods", p.accuracy.methods, "methods, space- or comma-separated (default: all presets)")->delimiter(',');
  acc->add_option("--kv-file", p.accuracy.kv_file, "KV tensors captured from a real model");
  acc->add_option("--seed", p.accuracy.seed, "random seed")->check(seed_range());
  acc->add_flag("--json", p.accuracy.json, "print JSON");
  acc->add_flag("--no-cache", p.accuracy.no_cache, "ignore and do not write the result cache");
  add_memory_limit(*acc, p.accuracy.memory_limit);
  acc->add_option("--text", p.accuracy.text, "real models: the text (default data/texts/kv_essay.txt)");
  acc->add_flag("--passkey-in-text", p.accuracy.passkey_in_text,
                "real models: passkey hidden in the text at --context tokens (default: filler prompts of 512-2048)");
  acc->add_flag("--no-passkey", p.accuracy.no_passkey, "real models: no passkey test");
  acc->add_option("--continuation", p.accuracy.continuation, "real models: scored tokens after the prompt (default 256)")
      ->check(CLI::Range(16, 4096));
  acc->add_option("--samples", p.accuracy.samples, "real models: draft windows per speculative method (default 4)")
      ->check(CLI::Range(0, 1024));
  acc->add_flag("--progress", p.accuracy.progress,
                "a progress line with ETA on stderr even when stderr is not a terminal");
  add_calibrate(app, p.calibrate);
  auto* timing = app.add_subcommand("calibrate-timing",
                                    "timing model against public measurements (median and worst error)");
  timing->add_option("--data", p.calibrate_timing.data,
                     "CSV file or folder (default data/calibration/timing)");
  timing->add_flag("--fit", p.calibrate_timing.fit,
                   "fit the GPU constants on the calibration points (not the hold-out), print them");
  add_bench(app, p.bench);
  add_flows(app, p.flows);
  add_search(app, p.search);
  auto* replay = app.add_subcommand("replay", "a real benchmark run's requests on a deployment scenario, "
                                              "measured against simulated latencies");
  replay->add_option("result", p.replay.result,
                     "vllm bench serve --save-detailed JSON, genai-perf profile_export.json or AIPerf "
                     "profile_export.jsonl")
      ->required();
  replay->add_option("--scenario", p.replay.scenario, "the deployment scenario")->required();
  replay->add_option("--set", p.replay.overrides, "override a field of the scenario: path=value");
  replay->add_flag("--json", p.replay.json, "print JSON");
  auto* logits = app.add_subcommand("llm-logits", "next-token logits of SmolLM2 for a prompt");
  logits->add_option("--model", p.llm_logits.model, "GGUF file (default: the fetched SmolLM2)");
  logits->add_option("--prompt", p.llm_logits.prompt, "prompt text")->required();
  logits->add_option("--out", p.llm_logits.out, "output file")->required();
  logits->add_flag("--force", p.llm_logits.force, "replace --out when it exists");
  logits->add_option("--threads", p.llm_logits.threads, "threads (default 1)")->check(CLI::Range(1, kMaxThreads));
}

void add_path_options(CLI::App& app, Parsed& p) {
  app.add_option("--data-dir", p.data_dir,
                 "bundled models/ and configs/ (default: the source tree lynxsim was built from)");
  app.add_option("--cache-dir", p.cache_dir,
                 "cache of accuracy results and downloaded models (default: ~/.cache/lynxsim)");
}

int dispatch(CLI::App& app, const Parsed& p) {
  const DataPaths data = resolve_data_paths(p.data_dir, p.cache_dir);
  if (app.got_subcommand("validate")) return cmd_validate(data, p.validate);
  if (app.got_subcommand("list")) return cmd_list(data);
  if (app.got_subcommand("keys")) return cmd_keys(p.keys_table);
  if (app.got_subcommand("estimate")) return cmd_estimate(data, p.estimate);
  if (app.got_subcommand("accuracy")) return cmd_accuracy(data, p.accuracy);
  if (app.got_subcommand("calibrate-acceptance")) return cmd_calibrate(data, p.calibrate);
  if (app.got_subcommand("calibrate-timing")) return cmd_calibrate_timing(data, p.calibrate_timing);
  if (app.got_subcommand("bench")) return cmd_bench(data, p.bench);
  if (app.got_subcommand("flows")) return cmd_flows(data, p.flows);
  if (app.got_subcommand("replay")) return cmd_replay(data, p.replay);
  if (app.got_subcommand("search")) return cmd_search(data, p.search);
  if (app.got_subcommand("llm-logits")) return cmd_llm_logits(data, p.llm_logits);
  if (p.run.scenario.empty()) {
    fmt::print(stderr, "lynxsim: give --scenario FILE or a subcommand (see --help)\n");
    return 2;
  }
  return cmd_run(data, p.run);
}

}  // namespace

int run_cli(int argc, char** argv) {
  CLI::App app{"lynxsim: a discrete-event simulator of KV-cache transfer in disaggregated LLM serving"};
  app.require_subcommand(0, 1);
  app.set_version_flag("--version",
                       fmt::format("lynxsim {} ({})", lynxsim_version(), lynxsim_commit()));
  Parsed parsed;
  add_run_options(app, parsed);
  add_subcommands(app, parsed);
  add_path_options(app, parsed);
  for (CLI::App* sub : app.get_subcommands({})) add_path_options(*sub, parsed);
  try {
    app.parse(argc, argv);
  } catch (const CLI::Success& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    app.exit(e);
    return 2;
  }
  try {
    return dispatch(app, parsed);
  } catch (const std::exception& e) {
    fmt::print(stderr, "lynxsim: {}\n", error_message(e));
    return exit_code_of(e);
  }
}

}  // namespace lynxsim::app
