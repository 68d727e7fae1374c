#include <fmt/format.h>
#include <nlohmann/json.hpp>
#include <thread>

#include "sim/accuracy/accuracy_memory.hpp"
#include "sim/accuracy/accuracy_run.hpp"
#include "sim/accuracy/accuracy_table.hpp"
#include "sim/accuracy/real_model/real_model_eval.hpp"
#include "sim/accuracy/real_model/real_model_table.hpp"
#include "sim/accuracy/methods/measured_methods.hpp"
#include "sim/serving/kv_bytes.hpp"
#include "sim/app/accuracy_measurement.hpp"
#include "sim/app/card_lookup.hpp"
#include "sim/app/commands.hpp"
#include "sim/app/input_errors.hpp"
#include "sim/app/memory_limit.hpp"
#include "sim/app/method_quality.hpp"
#include "sim/app/run_acceptance.hpp"
#include "sim/app/run_progress.hpp"
#include "sim/llm/model_path.hpp"
#include "sim/quant/method_spec.hpp"
#include "sim/store/accuracy_cache.hpp"
#include "sim/store/accuracy_json.hpp"
#include "sim/store/kv_file.hpp"
#include "sim/store/real_model_cache.hpp"
#include "sim/store/real_model_json.hpp"

namespace lynxsim::app {
namespace {

std::string cache_dir(const DataPaths& data, const AccuracyOptions& options) {
  return options.no_cache ? std::string() : data.accuracy_cache().string();
}

accuracy::RealModelResult real_model_accuracy(const DataPaths& data, const AccuracyOptions& options) {
  accuracy::RealModelRequest request;
  request.model_path = llm::require_model(data.cache_dir(), options.model).string();
  request.text_path = options.text.value_or(data.essay_text()).string();
  request.contexts = {options.context};
  request.continuation_tokens = options.continuation;
  request.acceptance_samples = options.samples;
  if (options.passkey_in_text) {
    request.passkey_in_text = true;
    request.passkey_contexts = {options.context};
  }
  if (options.no_passkey) request.passkey_contexts.clear();
  for (const std::string& name : options.methods) {
    request.methods.push_back(quant::method_from_name(name));
  }
  request.threads = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  request.seed = options.seed;
  return store::run_real_model(request, cache_dir(data, options));
}

// What a scenario run of this model would use, beside the raw proxy the table shows.
void print_run_acceptance(const DataPaths& data, const AccuracyOptions& options,
                          const accuracy::AccuracyResult& result) {
  if (result.acceptance.empty()) return;
  fmt::print("\nacceptance a scenario run uses (speculation.acceptance overrides it):\n");
  for (const auto& a : result.acceptance) {
    const RunAcceptance run =
        run_acceptance(data, options.model, options.context, a.method, a.acceptance_probability);
    fmt::print("{:<18}{:.3f}  range {:.3f}-{:.3f}  (proxy {:.3f}; {})\n", a.method, run.value, run.low, run.high,
               a.acceptance_probability, run.source);
  }
}

// The measurement's memory grows with --context (accuracy_memory.hpp): refused before it starts
// when the estimate exceeds the limit.
void check_accuracy_memory(const accuracy::AccuracyRequest& request, const AccuracyOptions& options) {
  const std::int64_t limit = memory_limit_bytes(options.memory_limit);
  const std::int64_t estimate = accuracy::accuracy_memory_bytes(request);
  if (estimate <= limit) return;
  throw InputError(fmt::format("--context {}: the accuracy measurement needs {} (docs/accuracy.md, \"Memory\"); "
                               "use a shorter --context or raise --memory-limit",
                               options.context, memory_excess(estimate, limit, options.memory_limit)));
}

}  // namespace

AccuracyMeasurement measure_accuracy(const DataPaths& data, const AccuracyOptions& options) {
  const AllocationScope measuring(fmt::format("measuring the accuracy of {} at --context {}", options.model, options.context));
  if (llm::is_real_model_name(options.model) && !options.kv_file) return {std::nullopt, real_model_accuracy(data, options)};
  accuracy::AccuracyRequest request;
  request.geometry = serving::kv_geometry_of(find_model(data, options.model));
  request.context = options.context;
  request.seed = options.seed;
  for (const std::string& name : options.methods) {
    request.methods.push_back(quant::method_from_name(name));
  }
  if (options.kv_file) request.kv_file = store::KvFile::open_shared(options.kv_file->string());
  request.threads = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  check_accuracy_memory(request, options);
  CountProgress progress(progress_wanted(options.progress, false), "accuracy: KV blocks");
  request.on_block_done = [&progress](std::size_t done, std::size_t total) { progress.update(done, total); };
  AccuracyMeasurement measured{store::run_accuracy(request, cache_dir(data, options)), std::nullopt};
  progress.finish();
  return measured;
}

nlohmann::json accuracy_json(const AccuracyMeasurement& measurement) {
  return measurement.real ? store::real_result_to_json(*measurement.real) : store::result_to_json(*measurement.synthetic);
}

int cmd_accuracy(const DataPaths& data, const AccuracyOptions& options) {
  const AccuracyMeasurement measured = measure_accuracy(data, options);
  if (options.json) {
    fmt::print("{}\n", accuracy_json(measured).dump(2));
  } else if (measured.real) {
    fmt::print("{}", accuracy::render_real_model_table(*measured.real));
  } else {
    fmt::print("{}", accuracy::render_accuracy_table(*measured.synthetic));
    print_run_acceptance(data, options, *measured.synthetic);
  }
  return 0;
}

}  // namespace lynxsim::app
