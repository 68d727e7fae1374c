#include <algorithm>
#include <filesystem>
#include <fmt/format.h>
#include <thread>

#include "sim/accuracy/calibration/acceptance_calibration_file.hpp"
#include "sim/accuracy/accuracy_run.hpp"
#include "sim/accuracy/real_model/real_model_eval.hpp"
#include "sim/accuracy/methods/measured_methods.hpp"
#include "sim/app/commands.hpp"
#include "sim/llm/model.hpp"
#include "sim/llm/model_path.hpp"
#include "sim/report/atomic_write.hpp"
#include "sim/quant/method_spec.hpp"

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
  r.cache_dir = data.accuracy_cache().string();
  r.threads = threads;
  r.seed = o.seed;
  return r;
}

accuracy::AccuracyResult proxy_result(const accuracy::KvGeometry& geometry, const accuracy::RealModelRequest& r,
                                      int context) {
  accuracy::AccuracyRequest proxy;
  proxy.geometry = geometry;
  proxy.context = context;
  proxy.seed = r.seed;
  proxy.methods = r.methods;
  proxy.cache_dir = r.cache_dir;
  proxy.threads = r.threads;
  return accuracy::run_accuracy(proxy);
}

}  // namespace

int cmd_calibrate(const DataPaths& data, const CalibrateOptions& options) {
  const int threads = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  const accuracy::RealModelRequest request = real_request(data, options, threads);
  const accuracy::RealModelResult real = accuracy::run_real_model(request);
  const accuracy::KvGeometry geometry =
      accuracy::geometry_of(llm::Model::load(request.model_path).config(), options.model);
  accuracy::CalibrationFile file;
  file.model = options.model;
  file.seed = options.seed;
  file.k_max = request.k_max;
  file.acceptance_samples = options.samples;
  file.acceptance_stride = options.stride;
  for (const auto& context : real.contexts) {
    const auto fitted = accuracy::fit_acceptance_calibration(context, proxy_result(geometry, request, context.context));
    file.entries.insert(file.entries.end(), fitted.begin(), fitted.end());
  }
  const auto out = options.out.value_or(data.acceptance_calibration(options.model));
  if (out.has_parent_path()) std::filesystem::create_directories(out.parent_path());
  report::write_file_atomic(out, accuracy::calibration_to_json(file).dump(2) + "\n");
  fmt::print("{}: {}\nwritten: {}\n", options.model, accuracy::render_calibration_table(file.entries), out.string());
  return 0;
}

}  // namespace lynxsim::app
