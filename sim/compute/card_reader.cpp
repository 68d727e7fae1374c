#include "sim/compute/card_reader.hpp"

#include <limits>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "sim/compute/card_loader.hpp"

namespace lynxsim {

CardReader::CardReader(std::string file, const nlohmann::json& root)
    : CardReader(std::move(file), root, "") {}

CardReader::CardReader(std::string file, const nlohmann::json& root, std::string prefix)
    : file_(std::move(file)), prefix_(std::move(prefix)), root_(root) {
  if (!root_.is_object()) error("", "expected a JSON object");
}

void CardReader::error(const std::string& pointer, std::string_view message) {
  const std::string full = prefix_ + pointer;
  errors_.push_back(fmt::format("{}: {}: {}", file_, full.empty() ? "/" : full, message));
}

bool CardReader::has(const std::string& key) const {
  return root_.is_object() && root_.contains(key);
}

CardReader CardReader::section(const std::string& key) {
  seen_.insert(key);
  return CardReader(file_, root_.at(key), prefix_ + "/" + key);
}

void CardReader::close_section(CardReader& child) {
  child.collect_unknown();
  errors_.insert(errors_.end(), child.errors_.begin(), child.errors_.end());
}

int CardReader::non_negative_int(const std::string& key) {
  const nlohmann::json* v = field(key);
  if (v == nullptr) return 0;
  if (!v->is_number_integer() || v->get<std::int64_t>() < 0 ||
      v->get<std::int64_t>() > std::numeric_limits<int>::max()) {
    error("/" + key, "expected a non-negative integer");
    return 0;
  }
  return v->get<int>();
}

const nlohmann::json* CardReader::field(const std::string& key) {
  seen_.insert(key);
  if (!root_.is_object()) return nullptr;
  const auto it = root_.find(key);
  if (it == root_.end()) {
    error("/" + key, "missing field");
    return nullptr;
  }
  return &*it;
}

int CardReader::positive_int(const std::string& key) {
  const nlohmann::json* v = field(key);
  if (v == nullptr) return 0;
  if (!v->is_number_integer() || v->get<std::int64_t>() <= 0 ||
      v->get<std::int64_t>() > std::numeric_limits<int>::max()) {
    error("/" + key, "expected a positive integer");
    return 0;
  }
  return v->get<int>();
}

double CardReader::positive_number(const std::string& key) {
  const nlohmann::json* v = field(key);
  if (v == nullptr) return 0.0;
  if (!v->is_number() || !(v->get<double>() > 0.0)) {
    error("/" + key, "expected a positive number");
    return 0.0;
  }
  return v->get<double>();
}

std::string CardReader::text(const std::string& key) {
  const nlohmann::json* v = field(key);
  if (v == nullptr) return {};
  if (!v->is_string() || v->get<std::string>().empty()) {
    error("/" + key, "expected a non-empty string");
    return {};
  }
  return v->get<std::string>();
}

void CardReader::optional_text(const std::string& key) {
  seen_.insert(key);
  if (!root_.is_object() || !root_.contains(key)) return;
  if (!root_.at(key).is_string()) error("/" + key, "expected a string");
}

void CardReader::schema_version(int expected) {
  const nlohmann::json* v = field("schema_version");
  if (v != nullptr && !(v->is_number_integer() && v->get<std::int64_t>() == expected)) {
    error("/schema_version", fmt::format("expected the integer {}", expected));
  }
}

const nlohmann::json* CardReader::quantity_value(const std::string& key) {
  const nlohmann::json* q = field(key);
  if (q == nullptr) return nullptr;
  const std::string pointer = "/" + key;
  if (!q->is_object()) {
    error(pointer, "expected an object {\"value\": ..., \"source\": \"...\"}");
    return nullptr;
  }
  bool has_source = false;
  for (const auto& [name, item] : q->items()) {
    if (name == "source" || name == "comment") {
      if (!item.is_string() || item.get<std::string>().empty()) {
        error(pointer + "/" + name, "expected a non-empty string");
      }
      has_source = true;
    } else if (name != "value") {
      error(pointer + "/" + name, "unknown key");
    }
  }
  if (!has_source) error(pointer + "/source", "missing field (every value needs its source)");
  if (!q->contains("value")) {
    error(pointer + "/value", "missing field");
    return nullptr;
  }
  return &q->at("value");
}

double CardReader::fraction(const std::string& key) {
  const nlohmann::json* v = quantity_value(key);
  if (v == nullptr) return 0.0;
  if (!v->is_number() || !(v->get<double>() > 0.0) || v->get<double>() > 1.0) {
    error("/" + key + "/value", "expected a number in (0, 1]");
    return 0.0;
  }
  return v->get<double>();
}

double CardReader::share(const std::string& key) {
  const nlohmann::json* v = quantity_value(key);
  if (v == nullptr) return 0.0;
  if (!v->is_number() || !(v->get<double>() >= 0.0) || v->get<double>() > 1.0) {
    error("/" + key + "/value", "expected a number in [0, 1]");
    return 0.0;
  }
  return v->get<double>();
}

double CardReader::count(const std::string& key) {
  const nlohmann::json* v = quantity_value(key);
  if (v == nullptr) return 0.0;
  if (!v->is_number() || !(v->get<double>() >= 0.0)) {
    error("/" + key + "/value", "expected a non-negative number");
    return 0.0;
  }
  return v->get<double>();
}

double CardReader::quantity(const std::string& key, std::string_view what,
                            const std::function<double(std::string_view)>& parse) {
  return read_quantity(key, what, parse, false);
}

double CardReader::non_negative_quantity(const std::string& key, std::string_view what,
                                         const std::function<double(std::string_view)>& parse) {
  return read_quantity(key, what, parse, true);
}

bool CardReader::flag(const std::string& key) {
  const nlohmann::json* v = quantity_value(key);
  if (v == nullptr) return false;
  if (!v->is_boolean()) {
    error("/" + key + "/value", "expected true or false");
    return false;
  }
  return v->get<bool>();
}

double CardReader::read_quantity(const std::string& key, std::string_view what,
                                 const std::function<double(std::string_view)>& parse,
                                 bool zero_allowed) {
  const nlohmann::json* v = quantity_value(key);
  if (v == nullptr) return 0.0;
  const std::string pointer = "/" + key + "/value";
  if (!v->is_string()) {
    error(pointer, fmt::format("expected {} (a string with its unit)", what));
    return 0.0;
  }
  try {
    const double magnitude = parse(v->get<std::string>());
    if (magnitude > 0.0 || (zero_allowed && magnitude == 0.0)) return magnitude;
    error(pointer, fmt::format("expected a {} value, got \"{}\"",
                               zero_allowed ? "non-negative" : "positive", v->get<std::string>()));
  } catch (const std::invalid_argument& e) {
    error(pointer, fmt::format("expected {}: {}", what, e.what()));
  }
  return 0.0;
}

void CardReader::collect_unknown() {
  if (!root_.is_object()) return;
  for (const auto& [name, item] : root_.items()) {
    if (seen_.count(name) == 0) error("/" + name, "unknown key");
  }
}

void CardReader::finish() {
  collect_unknown();
  if (errors_.empty()) return;
  throw CardError(fmt::format("{}", fmt::join(errors_, "\n")));
}

namespace {

MlaSpec read_mla(CardReader& r) {
  MlaSpec a;
  a.kv_lora_rank = r.positive_int("kv_lora_rank");
  a.qk_rope_head_dim = r.positive_int("qk_rope_head_dim");
  a.qk_nope_head_dim = r.positive_int("qk_nope_head_dim");
  a.v_head_dim = r.positive_int("v_head_dim");
  a.q_lora_rank = r.non_negative_int("q_lora_rank");
  return a;
}

LinearAttentionSpec read_linear_attention(CardReader& parent) {
  CardReader r = parent.section("linear");
  LinearAttentionSpec l;
  l.key_heads = r.positive_int("key_heads");
  l.value_heads = r.positive_int("value_heads");
  l.key_head_dim = r.positive_int("key_head_dim");
  l.value_head_dim = r.positive_int("value_head_dim");
  l.conv_kernel = r.positive_int("conv_kernel");
  r.optional_text("comment");
  parent.close_section(r);
  return l;
}

void check_layer_pattern(CardReader& r, const AttentionLayout& a) {
  const std::string& p = a.layer_pattern;
  if (p.find_first_not_of("FSL") != std::string::npos) {
    r.error("/layer_pattern", "expected letters F (full), S (sliding window) and L (linear) only");
  }
  if ((p.find('S') != std::string::npos) != (a.sliding_window > 0)) {
    r.error("/sliding_window", "expected exactly when layer_pattern has S layers");
  }
  if ((p.find('L') != std::string::npos) != a.linear.has_value()) {
    r.error("/linear", "expected exactly when layer_pattern has L layers");
  }
}

}  // namespace

void read_attention_layout(CardReader& parent, ModelSpec& m) {
  if (!parent.has("attention")) return;
  CardReader r = parent.section("attention");
  AttentionLayout& a = m.attention;
  const std::string kind = r.text("kind");
  if (kind == "mla") {
    a.mla = read_mla(r);
  } else if (kind != "gqa" && !kind.empty()) {
    r.error("/kind", "expected \"gqa\" or \"mla\"");
  }
  if (r.has("sliding_window")) a.sliding_window = r.positive_int("sliding_window");
  if (r.has("layer_pattern")) a.layer_pattern = r.text("layer_pattern");
  if (r.has("linear")) a.linear = read_linear_attention(r);
  check_layer_pattern(r, a);
  r.optional_text("comment");
  parent.close_section(r);
}

void read_weight_bits(CardReader& r, ModelSpec& m) {
  if (!r.has("weight_bits")) return;
  m.weight_bits = r.positive_int("weight_bits");
  if (m.weight_bits != 8 && m.weight_bits != 16) r.error("/weight_bits", "expected 8 or 16");
}

void read_moe(CardReader& parent, ModelSpec& m) {
  if (!parent.has("moe")) return;
  CardReader r = parent.section("moe");
  MoeSpec e;
  e.experts = r.positive_int("experts");
  e.top_k = r.positive_int("top_k");
  e.shared_experts = r.non_negative_int("shared_experts");
  e.expert_ffn_dim = r.positive_int("expert_ffn_dim");
  e.first_dense_layers = r.non_negative_int("first_dense_layers");
  if (e.top_k > e.experts) r.error("/top_k", "expected at most the number of experts");
  if (m.num_layers > 0 && e.first_dense_layers >= m.num_layers) {
    r.error("/first_dense_layers", "expected fewer than num_layers");
  }
  r.optional_text("comment");
  parent.close_section(r);
  m.moe = e;
}

}  // namespace lynxsim
