#include <algorithm>
#include <filesystem>
#include <map>

#include <fmt/format.h>

#include "sim/core/printable.hpp"
#include "sim/app/card_lookup.hpp"
#include "sim/app/commands.hpp"
#include "sim/app/deployment_ttft.hpp"
#include "sim/compute/timing_calibration.hpp"
#include "sim/compute/timing_fit.hpp"
#include "sim/scenario/calibration_csv.hpp"
#include "sim/scenario/card_files.hpp"

namespace lynxsim::app {
namespace {

std::vector<std::filesystem::path> calibration_files(const DataPaths& data,
                                                     const std::filesystem::path& given) {
  const std::filesystem::path where =
      given.empty() ? data.root / "data" / "calibration" / "timing" : given;
  if (!std::filesystem::is_directory(where)) return {where};
  std::vector<std::filesystem::path> files;
  for (const auto& entry : std::filesystem::directory_iterator(where)) {
    if (entry.path().extension() == ".csv") files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  if (files.empty()) throw std::runtime_error(fmt::format("{}: no .csv files", where.string()));
  return files;
}

struct LoadedPoints {
  std::vector<CalibrationPoint> points;
  std::vector<std::filesystem::path> files;  // the CSV of each point
};

LoadedPoints load_all(const std::vector<std::filesystem::path>& files) {
  LoadedPoints loaded;
  for (const auto& file : files) {
    const auto more = scenario::load_calibration_points(file);
    loaded.points.insert(loaded.points.end(), more.begin(), more.end());
    loaded.files.insert(loaded.files.end(), more.size(), file);
  }
  return loaded;
}

struct Specs {
  std::map<std::string, ModelSpec> models;
  std::map<std::string, HardwareSpec> gpus;  // in order of name
  std::map<std::string, EngineSpec, std::less<>> engines;  // calibration_engine of each group
  const EngineSpec& engine_of(const CalibrationPoint& p) const {
    return engines.find(calibration_engine(p.group))->second;
  }
};

// The model card a row's timing uses: rows without a model ("-", all-reduce) take llama-3.1-8b.
std::string card_of(const std::string& model) { return model == "-" ? "llama-3.1-8b" : model; }

// The cards the rows predicted by the timing model need; pd_ttft rows load their deployment.
Specs load_specs(const DataPaths& data, const std::vector<CalibrationPoint>& points) {
  Specs specs;
  for (const CalibrationPoint& p : points) {
    if (p.group == "pd_ttft") continue;
    const std::string engine(calibration_engine(p.group));
    if (!specs.engines.count(engine)) {
      specs.engines.emplace(engine, scenario::load_engine_profile(data.root / "configs" / "engines" /
                                                                  (engine + ".json")));
    }
    if (!specs.gpus.count(p.gpu)) specs.gpus.emplace(p.gpu, find_gpu(data, p.gpu));
    const std::string model = card_of(p.model);
    if (!specs.models.count(model)) specs.models.emplace(model, find_model(data, model));
  }
  return specs;
}

const ModelSpec& model_of(const Specs& specs, const std::string& name) {
  return specs.models.at(card_of(name));
}

struct Predictions {
  std::vector<double> ms;
  std::vector<std::string> engines;  // the engine each row was predicted with, "-" for none
};

Predictions predict_all(const DataPaths& data, const Specs& specs, const LoadedPoints& loaded) {
  Predictions out;
  for (std::size_t i = 0; i < loaded.points.size(); ++i) {
    const CalibrationPoint& p = loaded.points[i];
    if (p.group == "pd_ttft") {
      auto deployment = loaded.files[i];
      const DeploymentTtft ttft = deployment_ttft(data, deployment.replace_extension(".json"), p);
      out.ms.push_back(ttft.ms);
      out.engines.push_back(ttft.engine);
      continue;
    }
    const EngineSpec& engine = specs.engine_of(p);
    out.ms.push_back(predict_calibration_ms(p, model_of(specs, p.model), specs.gpus.at(p.gpu), &engine));
    out.engines.push_back(calibration_uses_engine(p.group) ? engine.name : "-");
  }
  return out;
}

void fit_all(Specs& specs, const std::vector<CalibrationPoint>& points) {
  const ModelLookup lookup = [&specs](const std::string& m) -> const ModelSpec& {
    return model_of(specs, m);
  };
  fmt::print("{:<10} {:>6}  {}\n", "gpu", "points", "fitted constants (times in us)");
  for (auto& [name, hw] : specs.gpus) {
    const HardwareFit fit = fit_hardware(points, lookup, hw);
    if (fit.constants.empty()) continue;
    fmt::print("{:<10} {:>6} ", name, fit.points);
    for (const FittedConstant& c : fit.constants) fmt::print(" {}={:g}", c.name, c.value);
    fmt::print("\n");
    hw = fit.hardware;
  }
  fmt::print("\n");
}

void print_points(const std::vector<CalibrationPoint>& points, const Predictions& predicted) {
  fmt::print("{:<21} {:<16} {:<9} {:<18} {:>2} {:>9} {:>7} {:>12} {:>12} {:>7}  {}\n", "group",
             "model", "gpu", "engine", "tp", "tokens", "context", "measured_ms", "predicted_ms",
             "error", "set");
  for (std::size_t i = 0; i < points.size(); ++i) {
    const CalibrationPoint& p = points[i];
    const double ms = predicted.ms[i];
    fmt::print("{:<21} {:<16} {:<9} {:<18} {:>2} {:>9} {:>7} {:>12.4f} {:>12.4f} {:>+6.1f}%  {}\n",
               terminal_text(p.group), terminal_text(p.model), terminal_text(p.gpu), predicted.engines[i], p.tp, p.tokens, p.context,
               p.measured_ms, ms, 100.0 * (ms - p.measured_ms) / p.measured_ms,
               p.holdout ? "hold-out" : "calibration");
  }
}

// Whole deployments are summarised per serving engine: "pd_ttft vllm", "pd_ttft sglang".
std::vector<CalibrationPoint> by_deployment_engine(std::vector<CalibrationPoint> points,
                                                   const Predictions& predicted) {
  for (std::size_t i = 0; i < points.size(); ++i) {
    if (points[i].group == "pd_ttft") points[i].group += " " + predicted.engines[i];
  }
  return points;
}

void print_summary(const std::vector<CalibrationSummary>& summary) {
  fmt::print("\n{:<21} {:<12} {:>6} {:>13} {:>12}\n", "group", "set", "points", "median_error",
             "worst_error");
  for (const CalibrationSummary& s : summary) {
    fmt::print("{:<21} {:<12} {:>6} {:>12.1f}% {:>11.1f}%\n", terminal_text(s.group),
               s.holdout ? "hold-out" : "calibration", s.points, 100.0 * s.median_error,
               100.0 * s.worst_error);
  }
}

}  // namespace

int cmd_calibrate_timing(const DataPaths& data, const CalibrateTimingOptions& options) {
  LoadedPoints loaded;
  Predictions predicted;
  try {
    loaded = load_all(calibration_files(data, options.data));
    Specs specs = load_specs(data, loaded.points);
    if (options.fit) fit_all(specs, loaded.points);
    predicted = predict_all(data, specs, loaded);
  } catch (const std::exception& e) {
    fmt::print(stderr, "lynxsim calibrate-timing: {}\n", terminal_text(e.what(), true));
    return 2;
  }
  print_points(loaded.points, predicted);
  print_summary(summarize_calibration(by_deployment_engine(loaded.points, predicted), predicted.ms));
  return 0;
}

}  // namespace lynxsim::app
