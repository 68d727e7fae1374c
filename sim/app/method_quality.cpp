#include "sim/app/method_quality.hpp"

#include "sim/app/run_acceptance.hpp"

#include <algorithm>
#include <filesystem>
#include <fmt/format.h>
#include <optional>
#include <thread>

#include "sim/accuracy/accuracy_run.hpp"
#include "sim/accuracy/methods/cachegen_sizes.hpp"
#include "sim/accuracy/methods/measured_methods.hpp"
#include "sim/serving/kv_bytes.hpp"
#include "sim/store/accuracy_cache.hpp"
#include "sim/store/cachegen_sizes_cache.hpp"
#include "sim/store/kv_file.hpp"
#include "sim/store/kv_profile_json.hpp"

namespace lynxsim::app {
namespace {

constexpr int kMaxMeasuredContext = 32768;

int representative_context(const serving::ServingConfig& config) {
  int context = 1;
  for (const auto& r : config.requests) context = std::max(context, r.context_tokens);
  return std::min(context, kMaxMeasuredContext);
}

void add_row(serving::MethodQuality& q, const accuracy::MethodPrecision& row, const std::string& prefix) {
  q.metrics[prefix + "key_snr_db"] = row.key_snr_db;
  q.metrics[prefix + "value_snr_db"] = row.value_snr_db;
  q.metrics[prefix + "attention_kl"] = row.attention_kl;
  q.metrics[prefix + "topk_recall"] = row.topk_recall;
  q.metrics[prefix + "output_rel_error"] = row.output_rel_error;
  q.metrics[prefix + "top1_agreement"] = row.top1_agreement;
  q.metrics[prefix + "needle_accuracy"] = row.needle_accuracy();
}

void set_acceptance(serving::MethodQuality& q, double proxy, const RunAcceptance& chosen) {
  q.metrics["proxy_acceptance"] = proxy;
  q.acceptance_low = chosen.low;
  q.acceptance_high = chosen.high;
  q.acceptance = chosen.value;
  q.acceptance_source = chosen.source;
}

struct AcceptanceContext {
  std::string model;
  int context = 0;
  const std::vector<accuracy::CalibrationFile>* calibrations = nullptr;
};

serving::MethodQuality quality_of(const accuracy::AccuracyResult& result,
                                  const quant::MethodSpec& method, const AcceptanceContext& a) {
  serving::MethodQuality q;
  q.measured_context = a.context;
  add_row(q, result.row(method.name, "full"), "");
  if (method.speculative()) {
    add_row(q, result.row(method.name, "anchor"), "anchor_");
    const double proxy = result.acceptance_probability(method.name);
    set_acceptance(q, proxy, choose_acceptance(proxy, method.name, a.model, a.context, *a.calibrations));
  }
  return q;
}

std::string accuracy_cache_dir(const scenario::Scenario& s) { return (s.cache_dir / "accuracy").string(); }

accuracy::KvProfile kv_profile_of(const scenario::Scenario& s) {
  if (!s.accuracy.profile) return accuracy::default_kv_profile();
  return store::load_kv_profile(s.accuracy.profile->string());
}

int hardware_threads() { return static_cast<int>(std::max(1u, std::thread::hardware_concurrency())); }

void add_cachegen_sizes(const scenario::Scenario& s, const quant::MethodSpec& m,
                        serving::MethodQuality& q) {
  accuracy::CacheGenSizeRequest r;
  r.geometry = serving::kv_geometry_of(s.serving.model);
  r.chunk_tokens = m.cachegen.chunk_tokens;
  r.seed = s.accuracy.seed;
  r.profile = kv_profile_of(s);
  if (s.accuracy.kv_file) r.kv_file = store::KvFile::open_shared(s.accuracy.kv_file->string());
  r.threads = hardware_threads();
  q.cachegen_level_ratios = store::run_cachegen_sizes(r, accuracy_cache_dir(s)).ratios();
  q.measured_size_ratio = q.cachegen_level_ratios.at(static_cast<std::size_t>(m.cachegen_level));
}

std::vector<serving::MethodQuality> measure_precision(const DataPaths& data, const scenario::Scenario& s) {
  std::vector<serving::MethodQuality> qualities(s.methods.size());
  if (!s.accuracy.enabled) return qualities;
  const accuracy::AccuracyRequest request = precision_request(s);
  const accuracy::AccuracyResult result = store::run_accuracy(request, accuracy_cache_dir(s));
  const auto calibrations = load_calibrations(data);
  const AcceptanceContext a{s.serving.model.name, request.context, &calibrations};
  for (std::size_t i = 0; i < s.methods.size(); ++i) qualities[i] = quality_of(result, s.methods[i], a);
  return qualities;
}

}  // namespace

accuracy::AccuracyRequest precision_request(const scenario::Scenario& s) {
  accuracy::AccuracyRequest request;
  request.geometry = serving::kv_geometry_of(s.serving.model);
  request.context = representative_context(s.serving);
  request.seed = s.accuracy.seed;
  request.profile = kv_profile_of(s);
  request.methods = s.methods;
  if (s.accuracy.kv_file) request.kv_file = store::KvFile::open_shared(s.accuracy.kv_file->string());
  request.threads = hardware_threads();
  return request;
}

std::vector<serving::MethodQuality> measure_method_qualities(const DataPaths& data, const scenario::Scenario& s) {
  std::vector<serving::MethodQuality> qualities = measure_precision(data, s);
  for (std::size_t i = 0; i < s.methods.size(); ++i) {
    if (s.methods[i].family == quant::MethodFamily::cachegen) {
      add_cachegen_sizes(s, s.methods[i], qualities[i]);
    }
  }
  return qualities;
}

}  // namespace lynxsim::app
