#include "sim/store/acceptance_calibration_file.hpp"

#include <limits>
#include <stdexcept>

#include "sim/fields/field_table.hpp"
#include "sim/fields/object_reader.hpp"
#include "sim/fields/strict_json.hpp"
#include "sim/store/text_file.hpp"

// Designated initializers leave the other members at their defaults on purpose; GCC 12 still warns.
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"

namespace lynxsim::store {
namespace {

using accuracy::AcceptanceCalibration;
using accuracy::CalibrationFile;
using accuracy::kCalibrationSchemaVersion;
using fields::Field;
using fields::FieldType;
using fields::ObjectReader;

constexpr double kMaxInt = std::numeric_limits<int>::max();

constexpr Field integer(std::string_view key, double min, double max) {
  return Field{.key = key, .type = FieldType::integer, .min = min, .max = max, .required = true};
}
constexpr Field fraction(std::string_view key) {
  return Field{.key = key, .type = FieldType::number, .min = 0.0, .max = 1.0, .required = true};
}

constexpr Field kHeader[] = {
    integer("schema_version", kCalibrationSchemaVersion, kCalibrationSchemaVersion),
    Field{.key = "model", .type = FieldType::text, .required = true},
    integer("seed", 0, kMaxInt),
    integer("k_max", 1, 64),
    integer("acceptance_samples", 1, kMaxInt),
    integer("acceptance_stride", 0, kMaxInt),
    Field{.key = "entries", .doc = "array of entries", .required = true},
};
constexpr Field kEntry[] = {
    Field{.key = "method", .type = FieldType::text, .required = true},
    integer("context", 1, kMaxInt),
    fraction("proxy_acceptance"),
    fraction("real_acceptance"),
    integer("real_trials", 1, kMaxInt),
};

const Field& field(std::span<const Field> table, std::string_view key) {
  return fields::FieldSection{"acceptance-calibration", "", table}[key];
}

nlohmann::json entry_json(const AcceptanceCalibration& c) {
  return {{"method", c.method},
          {"context", c.context},
          {"proxy_acceptance", c.proxy_acceptance},
          {"real_acceptance", c.real_acceptance},
          {"real_trials", c.real_trials}};
}

AcceptanceCalibration read_entry(const nlohmann::json& e, const std::string& path, fields::IssueList& issues) {
  ObjectReader r(e, path, issues);
  AcceptanceCalibration c;
  c.method = r.string(field(kEntry, "method")).value_or("");
  c.context = r.count(field(kEntry, "context")).value_or(0);
  c.proxy_acceptance = r.number(field(kEntry, "proxy_acceptance")).value_or(0.0);
  c.real_acceptance = r.number(field(kEntry, "real_acceptance")).value_or(0.0);
  c.real_trials = r.count(field(kEntry, "real_trials")).value_or(0);
  r.finish();
  return c;
}

void read_header(ObjectReader& r, CalibrationFile& f) {
  r.integer(field(kHeader, "schema_version"));
  f.model = r.string(field(kHeader, "model")).value_or("");
  f.seed = static_cast<std::uint64_t>(r.count(field(kHeader, "seed")).value_or(0));
  f.k_max = r.count(field(kHeader, "k_max")).value_or(0);
  f.acceptance_samples = r.count(field(kHeader, "acceptance_samples")).value_or(0);
  f.acceptance_stride = r.count(field(kHeader, "acceptance_stride")).value_or(0);
}

}  // namespace

nlohmann::json calibration_to_json(const CalibrationFile& f) {
  nlohmann::json entries = nlohmann::json::array();
  for (const auto& e : f.entries) entries.push_back(entry_json(e));
  return {{"schema_version", kCalibrationSchemaVersion},
          {"model", f.model},
          {"seed", f.seed},
          {"k_max", f.k_max},
          {"acceptance_samples", f.acceptance_samples},
          {"acceptance_stride", f.acceptance_stride},
          {"entries", entries}};
}

CalibrationFile calibration_from_json(const nlohmann::json& v, const std::string& document) {
  fields::IssueList issues;
  ObjectReader r(v, "", issues);
  CalibrationFile f;
  if (r.valid()) {
    read_header(r, f);
    const nlohmann::json* entries = r.get(field(kHeader, "entries").key, true);
    if (entries != nullptr && !entries->is_array()) {
      issues.add("/entries", "expected an array of entries");
    } else if (entries != nullptr) {
      for (std::size_t i = 0; i < entries->size(); ++i) {
        f.entries.push_back(read_entry((*entries)[i], "/entries/" + std::to_string(i), issues));
      }
    }
  }
  r.finish();
  issues.throw_if_any(document);
  return f;
}

CalibrationFile read_calibration_file(const std::filesystem::path& path) {
  return calibration_from_json(fields::parse_json_document(read_text_file(path.string()), path.string()),
                               path.string());
}

}  // namespace lynxsim::store
