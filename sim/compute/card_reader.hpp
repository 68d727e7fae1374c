#pragma once
// A strict reader of one JSON card object that collects every error instead of stopping at the
// first. Each accessor reads one key, records that the key was seen, and on a bad value records
// "/pointer: expected ..." and returns a neutral value (0 or empty). finish() adds one error per
// unknown key and throws a CardError listing all errors, each line prefixed by the file name.
//
// Quantities are objects {"value": ..., "source": "..."} (a "comment" string may stand in for, or
// accompany, "source"); the value is a string with a unit, or a number for dimensionless factors.

#include <functional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "sim/compute/model_spec.hpp"

namespace lynxsim {

class CardReader {
public:
  CardReader(std::string file, const nlohmann::json& root);

  int positive_int(const std::string& key);
  int non_negative_int(const std::string& key);
  bool has(const std::string& key) const;
  double positive_number(const std::string& key);
  std::string text(const std::string& key);
  void optional_text(const std::string& key);
  void schema_version(int expected);

  // {"value": number in (0, 1], "source": ...}
  double fraction(const std::string& key);
  // {"value": number in [0, 1], "source": ...}
  double share(const std::string& key);
  // {"value": number >= 0, "source": ...}
  double count(const std::string& key);
  // {"value": "<number><unit>", "source": ...}; parse converts the text (throwing on a bad unit)
  // to a magnitude that must be positive. `what` completes "expected ...".
  double quantity(const std::string& key, std::string_view what,
                  const std::function<double(std::string_view)>& parse);
  // As quantity(), but zero is allowed (a cost that an engine does not have).
  double non_negative_quantity(const std::string& key, std::string_view what,
                               const std::function<double(std::string_view)>& parse);
  // {"value": true | false, "source": ...}
  bool flag(const std::string& key);

  // Throws CardError when any error was recorded or a key of the root was never read.
  void finish();

  // A reader of the object at `key` whose errors name /key/...; close_section() takes its errors
  // and unknown keys into this reader. Call only when has(key).
  CardReader section(const std::string& key);
  void close_section(CardReader& child);
  void error(const std::string& pointer, std::string_view message);

private:
  CardReader(std::string file, const nlohmann::json& root, std::string prefix);
  void collect_unknown();
  const nlohmann::json* field(const std::string& key);
  const nlohmann::json* quantity_value(const std::string& key);
  double read_quantity(const std::string& key, std::string_view what,
                       const std::function<double(std::string_view)>& parse, bool zero_allowed);

  std::string file_;
  std::string prefix_;
  const nlohmann::json& root_;
  std::set<std::string> seen_;
  std::vector<std::string> errors_;
};

// The optional model-card sections "attention" and "moe" (model_layers.hpp, docs/models.md).
void read_attention_layout(CardReader& r, ModelSpec& m);
void read_moe(CardReader& r, ModelSpec& m);
// Optional "weight_bits": 8 or 16 (default), the storage of the layers' projection weights.
void read_weight_bits(CardReader& r, ModelSpec& m);

}  // namespace lynxsim
