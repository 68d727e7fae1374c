#include <algorithm>
#include <filesystem>
#include <fmt/format.h>
#include <thread>

#include "sim/accuracy/calibration/calibration_table.hpp"
#include "sim/accuracy/accuracy_run.hpp"
#include "sim/accuracy/real_model/real_model_eval.hpp"
#include "sim/accuracy/methods/measured_methods.hpp"
#include "sim/app/commands.hpp"
#include "sim/llm/model.hpp"
#include "sim/llm/model_path.hpp"
#include "sim/core/printable.hpp"
#include "sim/report/atomic_write.hpp"
#include "sim/report/output_path.hpp"
#include "sim/quant/method_spec.hpp"
#include "sim/store/acceptance_calibration_file.hpp"
#include "sim/store/accuracy_cache.hpp"
#include "sim/store/real_model_cache.hpp"

namespace lynxsim::app {
namespace {

std::vector<quant::MethodSpec> speculative_methods(const std::vector<std::string>& names) {
  std::vector<quant::MethodSpec> methods;
  for (const auto& name : names) {
    const quant::MethodSpec m = quant::method_from_name(name);
    if (!m.speculative()) throw std::invalid_argument(fmt::format("calibrate-acceptance: {} is not speculative", name));
    methods.push_back(m);
  }
  return methods;
}

accuracy::RealModelRequest real_request(const DataPaths& data, const CalibrateOptions& o, int threads) {
  accuracy::RealModelRequest r;
  r.model_path = llm::require_model(data.cache_dir(), o.model).string();
  r.text_path = data.essay_text().string();
  r.contexts = o.contexts;
  r.methods = speculative_methods(o.methods);
  r.acceptance_samples = o.samples;
  r.acceptance_stride = o.stride;
  r.continuation_tokens = o.samples * o.stride;
  r.passkey_contexts.clear();
  r.threads = threads;
  r.seed = o.seed;
  return r;
}

accuracy::AccuracyResult proxy_result(const accuracy::KvGeometry& geometry, const accuracy::RealModelRequest& r,
                                      int context, const std::string& cache_dir) {
  accuracy::AccuracyRequest proxy;
  proxy.geometry = geometry;
  proxy.context = context;
  proxy.seed = r.seed;
  proxy.methods = r.methods;
  proxy.threads = r.threads;
  return store::run_accuracy(proxy, cache_dir);
}

}  // namespace

int cmd_calibrate(const DataPaths& data, const CalibrateOptions& options) {
  if (options.out) report::check_output_file(*options.out, "--out", options.force);
  const int threads = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  const accuracy::RealModelRequest request = real_request(data, options, threads);
  const std::string cache_dir = data.accuracy_cache().string();
  const accuracy::RealModelResult real = store::run_real_model(request, cache_dir);
  const accuracy::KvGeometry geometry =
      accuracy::geometry_of(llm::Model::load(request.model_path).config(), options.model);
  accuracy::CalibrationFile file;
  file.model = options.model;
  file.seed = options.seed;
  file.k_max = request.k_max;
  file.acceptance_samples = options.samples;
  file.acceptance_stride = options.stride;
  for (const auto& context : real.contexts) {
    const auto fitted = accuracy::fit_acceptance_calibration(context, proxy_result(geometry, request, context.context, cache_dir));
    file.entries.insert(file.entries.end(), fitted.begin(), fitted.end());
  }
  const auto out = options.out.value_or(data.acceptance_calibration(options.model));
  if (out.has_parent_path()) std::filesystem::create_directories(out.parent_path());
  report::write_file_atomic(out, store::calibration_to_json(file).dump(2) + "\n");
  fmt::print("{}: {}\nwritten: {}\n", options.model, accuracy::render_calibration_table(file.entries),
             terminal_text(out.string()));
  return 0;
}

}  // namespace lynxsim::app
