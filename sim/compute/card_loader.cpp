#include "sim/compute/card_loader.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "sim/compute/card_reader.hpp"
#include "sim/core/input_file.hpp"
#include "sim/core/unit_parse.hpp"

namespace lynxsim {
namespace {

constexpr int kSchemaVersion = 1;

nlohmann::json read_json(const std::filesystem::path& path) {
  std::string text;
  try {
    text = read_input_file(path, kMaxConfigFileBytes);
  } catch (const InputFileError& e) {
    throw CardError(e.what());
  }
  try {
    return nlohmann::json::parse(text);
  } catch (const nlohmann::json::parse_error& e) {
    throw CardError(fmt::format("{}: invalid JSON: {}", path.string(), e.what()));
  }
}

void read_model_fields(CardReader& r, ModelSpec& m) {
  m.num_layers = r.positive_int("num_layers");
  m.hidden_size = r.positive_int("hidden_size");
  m.num_heads = r.positive_int("num_heads");
  m.num_kv_heads = r.positive_int("num_kv_heads");
  m.head_dim = r.positive_int("head_dim");
  m.ffn_dim = r.positive_int("ffn_dim");
  m.vocab_size = r.positive_int("vocab_size");
  m.num_params = r.positive_number("num_params");
  m.rope_theta = r.positive_number("rope_theta");
  m.max_context = r.positive_int("max_context");
  read_attention_layout(r, m);
  read_moe(r, m);
  read_weight_bits(r, m);
}

double seconds_of(std::string_view s) { return parse_time(s).seconds(); }

void read_hardware_fields(CardReader& r, HardwareSpec& h) {
  const auto flops = [](std::string_view s) { return parse_flops_rate(s).value; };
  const auto byte_rate = [](std::string_view s) { return parse_byte_rate(s).value; };
  const auto bit_rate = [](std::string_view s) { return parse_bit_rate(s).value; };
  const auto bytes = [](std::string_view s) { return parse_bytes(s).as_double(); };
  const std::string_view flops_what = "a FLOP rate like \"989.4TFLOPS\"";
  const std::string_view rate_what = "a byte rate like \"3.35TB/s\"";
  const std::string_view time_what = "a duration like \"30us\"";
  h.peak_bf16 = {r.quantity("peak_bf16", flops_what, flops)};
  h.peak_int8 = {r.quantity("peak_int8", "an operation rate like \"1979TOPS\"", flops)};
  if (r.has("peak_fp8")) h.peak_fp8 = {r.quantity("peak_fp8", flops_what, flops)};
  h.hbm_capacity = {std::llround(r.quantity("hbm_capacity", "a size like \"80GB\"", bytes))};
  h.hbm_bandwidth = {r.quantity("hbm_bandwidth", rate_what, byte_rate)};
  h.compute_efficiency = r.fraction("compute_efficiency");
  h.memory_efficiency = r.fraction("memory_efficiency");
  h.attention_efficiency = r.fraction("attention_efficiency");
  h.kernel_memory_efficiency = r.fraction("kernel_memory_efficiency");
  h.gemm_half_tokens = r.count("gemm_half_tokens");
  h.elementwise_efficiency = r.fraction("elementwise_efficiency");
  h.kv_read_efficiency = r.fraction("kv_read_efficiency");
  h.scale_up_efficiency = r.fraction("scale_up_efficiency");
  h.kernel_floor = Time::from_seconds(r.quantity("kernel_floor", time_what, seconds_of));
  h.attention_floor = Time::from_seconds(r.quantity("attention_floor", time_what, seconds_of));
  h.attention_block_time = Time::from_seconds(
      r.non_negative_quantity("attention_block_time", time_what, seconds_of));
  h.sm_count = static_cast<int>(std::lround(r.count("sm_count")));
  h.layer_overhead = Time::from_seconds(r.quantity("layer_overhead", time_what, seconds_of));
  h.step_overhead = Time::from_seconds(r.quantity("step_overhead", time_what, seconds_of));
  h.kernel_launch = Time::from_seconds(r.quantity("kernel_launch", time_what, seconds_of));
  h.scale_up_bandwidth = {r.quantity("scale_up_bandwidth", rate_what, byte_rate)};
  h.scale_up_latency = Time::from_seconds(r.quantity("scale_up_latency", time_what, seconds_of));
  h.scale_up_step_latency = Time::from_seconds(
      r.non_negative_quantity("scale_up_step_latency", time_what, seconds_of));
  h.nic_bandwidth = {r.quantity("nic_bandwidth", "a bit rate like \"400Gbps\"", bit_rate)};
}

void read_engine_fields(CardReader& r, EngineSpec& e) {
  const auto time = [&r](const char* key) {
    return Time::from_seconds(r.non_negative_quantity(key, "a duration like \"2ms\"", seconds_of));
  };
  e.arrival_to_prefill = time("arrival_to_prefill");
  e.tokenize_per_token = time("tokenize_per_token");
  e.kv_connector_setup = time("kv_connector_setup");
  e.first_decode_launch = time("first_decode_launch");
  e.step_overhead = time("step_overhead");
  e.step_overhead_per_sequence = time("step_overhead_per_sequence");
  e.cuda_graphs = r.flag("cuda_graphs");
  e.layer_launch_overhead = time("layer_launch_overhead");
  e.tp_comm_overlap = r.share("tp_comm_overlap");
}

std::vector<std::filesystem::path> json_files(const std::filesystem::path& dir) {
  if (!std::filesystem::is_directory(dir)) {
    throw CardError(fmt::format("{}: not a directory", dir.string()));
  }
  std::vector<std::filesystem::path> files;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    if (entry.is_regular_file() && entry.path().extension() == ".json") files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  return files;
}

template <class Spec, class Load>
std::vector<Spec> load_all(const std::filesystem::path& dir, Load load) {
  std::vector<Spec> specs;
  for (const auto& file : json_files(dir)) specs.push_back(load(file));
  std::sort(specs.begin(), specs.end(),
            [](const Spec& a, const Spec& b) { return a.name < b.name; });
  return specs;
}

}  // namespace

ModelSpec load_model_card(const std::filesystem::path& path) {
  return model_card_from_json(read_json(path), path.string());
}

HardwareSpec load_hardware_profile(const std::filesystem::path& path) {
  return hardware_profile_from_json(read_json(path), path.string());
}

EngineSpec load_engine_profile(const std::filesystem::path& path) {
  return engine_profile_from_json(read_json(path), path.string());
}

EngineSpec engine_profile_from_json(const nlohmann::json& root, const std::string& source) {
  CardReader r(source, root);
  EngineSpec e;
  r.schema_version(kSchemaVersion);
  e.name = r.text("name");
  e.description = r.text("description");
  read_engine_fields(r, e);
  r.optional_text("comment");
  r.finish();
  return e;
}

ModelSpec model_card_from_json(const nlohmann::json& root, const std::string& source) {
  CardReader r(source, root);
  ModelSpec m;
  r.schema_version(kSchemaVersion);
  m.name = r.text("name");
  m.description = r.text("description");
  read_model_fields(r, m);
  r.text("source");
  r.optional_text("comment");
  r.finish();
  return m;
}

HardwareSpec hardware_profile_from_json(const nlohmann::json& root, const std::string& source) {
  CardReader r(source, root);
  HardwareSpec h;
  r.schema_version(kSchemaVersion);
  h.name = r.text("name");
  h.description = r.text("description");
  read_hardware_fields(r, h);
  r.optional_text("comment");
  r.finish();
  return h;
}

std::vector<ModelSpec> list_model_cards(const std::filesystem::path& dir) {
  return load_all<ModelSpec>(dir, load_model_card);
}

std::vector<HardwareSpec> list_hardware(const std::filesystem::path& dir) {
  return load_all<HardwareSpec>(dir, load_hardware_profile);
}

std::vector<EngineSpec> list_engines(const std::filesystem::path& dir) {
  return load_all<EngineSpec>(dir, load_engine_profile);
}

}  // namespace lynxsim
