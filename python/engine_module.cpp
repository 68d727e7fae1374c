// lynxsim._engine: the simulator in the Python process. Each function calls the same sim/app
// functions as the CLI command it mirrors (scenario_run.hpp, run_estimate, measure_accuracy), with
// the GIL released while it works, and returns the CLI's outputs as text (summary.json,
// requests.csv, scenario.resolved.json, the --json documents) for the package to convert, so a
// value reaches Python exactly as the CLI writes it. Nothing is printed but the CLI's warnings (a
// truncated trace), and the progress line when asked for. An error is raised as
// EngineError((exit_code, message)): the exit code the CLI would end with (2 bad input, 70 internal
// error, 1 another failure) and the message it prints after "lynxsim: ".

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>
#include <pybind11/stl/filesystem.h>

#include <exception>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "sim/app/accuracy_measurement.hpp"
#include "sim/app/commands.hpp"
#include "sim/app/input_errors.hpp"
#include "sim/app/scenario_check.hpp"
#include "sim/app/scenario_run.hpp"
#include "sim/report/estimate_json.hpp"
#include "sim/report/requests_csv.hpp"
#include "sim/report/results_folder.hpp"
#include "sim/scenario/input_limits.hpp"

namespace py = pybind11;
using namespace py::literals;

namespace lynxsim::python {
namespace {

using Path = std::optional<std::filesystem::path>;

struct EngineError {
  int exit_code;
  std::string message;
};

// Runs `work` without the GIL; any exception leaves as an EngineError.
template <class Work>
auto engine_call(Work&& work) {
  py::gil_scoped_release released;
  try {
    return work();
  } catch (const std::exception& e) {
    throw EngineError{app::exit_code_of(e), app::error_message(e)};
  }
}

struct RunTexts {
  std::string name;
  std::string summary;
  std::string requests;
  std::string resolved;
};

RunTexts run_texts(const app::RunOptions& o, const Path& data_dir, const Path& cache_dir) {
  const app::DataPaths data = app::resolve_data_paths(data_dir, cache_dir);
  const app::TraceFilter filter = app::parse_trace_filter(o.trace_filter);
  const scenario::Scenario s = app::load_run_scenario(data, o, filter);
  if (o.out) app::check_run_target(*o.out, o.force);
  report::TraceWriter trace(static_cast<std::size_t>(o.trace_limit));
  const std::vector<serving::MethodResult> results = app::simulate_run(data, s, o, filter, trace);
  const report::RunOutputs outputs = app::run_outputs(s, results, o.trace ? &trace : nullptr);
  if (o.out) report::write_results_folder(*o.out, outputs, o.force, o.signal_cleanup);
  app::warn_if_truncated(trace);
  return {s.name, report::summary_json_text(outputs), report::requests_csv(results),
          report::pretty_json(s.resolved)};
}

py::dict run(const std::string& scenario, const std::optional<std::string>& text,
             const std::vector<std::string>& overrides, std::optional<std::uint64_t> seed, const Path& out,
             bool force, const app::TraceFilterText& trace_filter, std::optional<std::int64_t> trace_limit,
             const std::optional<std::string>& memory_limit, bool progress, const Path& data_dir,
             const Path& cache_dir) {
  app::RunOptions o;
  o.scenario = scenario;
  o.scenario_text = text;
  o.overrides = overrides;
  o.seed = seed;
  o.out = out;
  o.force = force;
  o.trace = trace_limit.has_value();
  o.trace_limit = trace_limit.value_or(0);
  o.trace_filter = trace_filter;
  o.memory_limit = memory_limit;
  o.progress = progress;
  o.quiet = true;
  o.signal_cleanup = false;
  const RunTexts t = engine_call([&] { return run_texts(o, data_dir, cache_dir); });
  return py::dict("name"_a = t.name, "summary_json"_a = t.summary, "requests_csv"_a = t.requests,
                  "resolved_json"_a = t.resolved);
}

py::dict validate(const std::string& scenario, const std::optional<std::string>& text,
                  const std::vector<std::string>& overrides, const app::TraceFilterText& trace_filter,
                  std::optional<std::int64_t> trace_limit, const std::optional<std::string>& memory_limit,
                  const Path& data_dir, const Path& cache_dir) {
  app::ValidateOptions o;
  o.file = scenario;
  o.text = text;
  o.overrides = overrides;
  o.trace = trace_limit.has_value();
  o.trace_limit = trace_limit.value_or(0);
  o.trace_filter = trace_filter;
  o.memory_limit = memory_limit;
  const auto [v, trace_events] = engine_call([&] {
    const app::TraceFilter filter = app::parse_trace_filter(o.trace_filter);
    app::ScenarioValidation checked = app::validate_run_scenario(app::resolve_data_paths(data_dir, cache_dir), o, filter);
    const std::int64_t events = o.trace ? app::trace_events_at_least(checked.scenario, filter.methods()) : 0;
    return std::make_pair(std::move(checked), events);
  });
  const scenario::ResourceEstimate& e = v.resources;
  py::dict sizes("name"_a = v.scenario.name, "methods"_a = v.scenario.methods.size(),
                 "requests"_a = v.scenario.serving.requests.size(), "hosts"_a = e.network.hosts,
                 "links"_a = e.network.links, "prefill_gpus"_a = e.prefill_ranks, "decode_gpus"_a = e.decode_ranks,
                 "flows_at_most"_a = e.flows_at_most, "memory_estimate_bytes"_a = v.memory_estimate,
                 "memory_limit_bytes"_a = v.memory_limit);
  if (o.trace) sizes["trace_events_at_least"] = trace_events;
  return sizes;
}

std::string estimate(const app::EstimateOptions& o, const Path& data_dir, const Path& cache_dir) {
  return engine_call([&] { return report::estimate_json(app::run_estimate(app::resolve_data_paths(data_dir, cache_dir), o)); });
}

std::string accuracy(const app::AccuracyOptions& o, const Path& data_dir, const Path& cache_dir) {
  return engine_call([&] {
    return app::accuracy_json(app::measure_accuracy(app::resolve_data_paths(data_dir, cache_dir), o)).dump(2);
  });
}

app::TraceFilterText trace_filter(const std::optional<std::string>& window, const std::optional<std::string>& requests,
                                  const std::optional<std::string>& methods, std::int64_t links) {
  return {window, requests, methods, links};
}

void bind_options(py::module_& m) {
  py::class_<app::TraceFilterText>(m, "TraceFilter");
  m.def("trace_filter", &trace_filter, "window"_a, "requests"_a, "methods"_a, "links"_a);
  py::class_<app::EstimateOptions>(m, "EstimateOptions")
      .def(py::init<>())
      .def_readwrite("model", &app::EstimateOptions::model)
      .def_readwrite("gpu", &app::EstimateOptions::gpu)
      .def_readwrite("context", &app::EstimateOptions::context)
      .def_readwrite("batch", &app::EstimateOptions::batch)
      .def_readwrite("tp", &app::EstimateOptions::tp)
      .def_readwrite("prefill_attention_dp", &app::EstimateOptions::prefill_attention_dp)
      .def_readwrite("decode_attention_dp", &app::EstimateOptions::decode_attention_dp)
      .def_readwrite("expert_parallel", &app::EstimateOptions::expert_parallel)
      .def_readwrite("expert_load_imbalance", &app::EstimateOptions::expert_load_imbalance)
      .def_readwrite("engine", &app::EstimateOptions::engine)
      .def_readwrite("output", &app::EstimateOptions::output);
  py::class_<app::AccuracyOptions>(m, "AccuracyOptions")
      .def(py::init<>())
      .def_readwrite("model", &app::AccuracyOptions::model)
      .def_readwrite("context", &app::AccuracyOptions::context)
      .def_readwrite("methods", &app::AccuracyOptions::methods)
      .def_readwrite("kv_file", &app::AccuracyOptions::kv_file)
      .def_readwrite("seed", &app::AccuracyOptions::seed)
      .def_readwrite("no_cache", &app::AccuracyOptions::no_cache)
      .def_readwrite("progress", &app::AccuracyOptions::progress)
      .def_readwrite("memory_limit", &app::AccuracyOptions::memory_limit)
      .def_readwrite("text", &app::AccuracyOptions::text)
      .def_readwrite("passkey_in_text", &app::AccuracyOptions::passkey_in_text)
      .def_readwrite("no_passkey", &app::AccuracyOptions::no_passkey)
      .def_readwrite("continuation", &app::AccuracyOptions::continuation)
      .def_readwrite("samples", &app::AccuracyOptions::samples);
}

}  // namespace
}  // namespace lynxsim::python

PYBIND11_MODULE(_engine, m) {
  using namespace lynxsim::python;
  m.doc() = "lynxsim's simulator in-process; use the package lynxsim, not this module";
  // Kept for the life of the process (a static py::object would be released after the interpreter).
  static PyObject* const engine_error = PyErr_NewException("lynxsim._engine.EngineError", PyExc_Exception, nullptr);
  m.add_object("EngineError", py::handle(engine_error));
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const EngineError& e) {
      PyErr_SetObject(engine_error, py::make_tuple(e.exit_code, e.message).ptr());
    }
  });
  bind_options(m);
  m.def("run", &run, "scenario"_a, "text"_a, "overrides"_a, "seed"_a, "out"_a, "force"_a, "trace_filter"_a,
        "trace_limit"_a, "memory_limit"_a, "progress"_a, "data_dir"_a, "cache_dir"_a);
  m.def("validate", &validate, "scenario"_a, "text"_a, "overrides"_a, "trace_filter"_a, "trace_limit"_a,
        "memory_limit"_a, "data_dir"_a, "cache_dir"_a);
  m.def("estimate", &estimate, "options"_a, "data_dir"_a, "cache_dir"_a);
  m.def("accuracy", &accuracy, "options"_a, "data_dir"_a, "cache_dir"_a);
  m.attr("default_trace_limit") = lynxsim::scenario::kDefaultTraceEvents;
}
