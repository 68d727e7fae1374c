#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <functional>
#include <fstream>
#include <map>
#include <string>

#include <nlohmann/json.hpp>

#include "sim/scenario/card_files.hpp"
#include "sim/scenario/field_table.hpp"

namespace lynxsim::scenario {
namespace {

namespace fs = std::filesystem;

fs::path source_path(const std::string& relative) { return fs::path(LYNXSIM_SOURCE_DIR) / relative; }

HardwareSpec shipped_hardware(const std::string& name) {
  return load_hardware_profile(source_path("configs/gpus/" + name + ".json"));
}

fs::path scratch_file(const std::string& name, const std::string& text) {
  const fs::path dir = fs::path(LYNXSIM_BINARY_DIR) / "test_card_files";
  fs::create_directories(dir);
  const fs::path path = dir / name;
  std::ofstream(path) << text;
  return path;
}

std::string error_of(const std::function<void()>& load) {
  try {
    load();
  } catch (const CardError& e) {
    return e.what();
  }
  return "";
}

const char* kGoodModel = R"({"schema_version": 1, "name": "x", "description": "d",
  "num_layers": 2, "hidden_size": 64, "num_heads": 4, "num_kv_heads": 2, "head_dim": 16,
  "ffn_dim": 128, "vocab_size": 100, "num_params": 1e5, "rope_theta": 10000,
  "max_context": 4096, "source": "test"})";

TEST_CASE("every model card loads and its KV bytes per token match the reference table") {
  const std::map<std::string, std::int64_t> kv_kib_x2 = {
      {"llama-3.1-8b", 256}, {"llama-3.1-70b", 640}, {"llama-3.1-405b", 1008},
      {"qwen2.5-7b", 112},   {"qwen2.5-14b", 384},   {"qwen2.5-32b", 512},
      {"qwen2.5-72b", 640},  {"qwen3-8b", 288},      {"qwen3-32b", 512},
      {"mistral-7b", 256},   {"yi-34b", 480},        {"glm-4-9b", 80},
      {"llama-2-7b", 1024},  {"smollm2-135m", 45}};
  const auto cards = list_model_cards(source_path("models"));
  REQUIRE(cards.size() >= kv_kib_x2.size());
  for (const auto& [name, half_kib] : kv_kib_x2) {
    CAPTURE(name);
    const auto it = std::find_if(cards.begin(), cards.end(),
                                 [&](const ModelSpec& m) { return m.name == name; });
    REQUIRE(it != cards.end());
    CHECK(it->kv_bytes_per_token_bf16().value * 2 == half_kib * 1024);
  }
  for (const ModelSpec& m : cards) {
    CAPTURE(m.name);
    CHECK(m.num_heads % m.num_kv_heads == 0);
    const double counted = m.linear_params_per_layer() * m.num_layers + m.lm_head_params();
    CHECK(counted <= 1.02 * m.num_params);
    CHECK(counted + m.lm_head_params() >= 0.93 * m.num_params);
    CHECK(!describe(m).empty());
  }
}

TEST_CASE("every hardware profile loads and passes sanity checks") {
  const auto profiles = list_hardware(source_path("configs/gpus"));
  CHECK(profiles.size() >= 8);
  for (const char* name : {"a100-80g", "h100-sxm", "h200", "b200", "l40s", "mi300x",
                           "ascend-910b", "ascend-910c-die"}) {
    CAPTURE(name);
    const HardwareSpec h = shipped_hardware(name);
    CHECK(h.name == name);
    CHECK(h.peak_int8.value >= 1.9 * h.peak_bf16.value);
    CHECK(h.peak_bf16.value > 1e14);
    CHECK(h.hbm_capacity.value >= 48'000'000'000);
    CHECK(h.hbm_bandwidth.value > 5e11);
    for (double eff : {h.compute_efficiency, h.memory_efficiency, h.attention_efficiency,
                       h.kernel_memory_efficiency}) {
      CHECK(eff > 0.2);
      CHECK(eff <= 1.0);
    }
    CHECK(h.layer_overhead < Time::from_us(200.0));
    CHECK(h.kernel_launch > Time::zero());
    CHECK(h.nic_bandwidth.value >= 100e9);
    CHECK(!describe(h).empty());
  }
  const HardwareSpec h100 = shipped_hardware("h100-sxm");
  CHECK(h100.peak_bf16.value == doctest::Approx(989.4e12));
  CHECK(h100.hbm_bandwidth.value == doctest::Approx(3.35e12));
  CHECK(h100.hbm_capacity.value == 80'000'000'000);
  CHECK(h100.nic_bandwidth.value == doctest::Approx(400e9));
  CHECK(shipped_hardware("ascend-910b").hbm_bandwidth.value ==
        doctest::Approx(1.6 * 1024.0 * 1024 * 1024 * 1024));
}

TEST_CASE("a model card with several faults reports all of them with file and JSON path") {
  std::string text = kGoodModel;
  text.replace(text.find("\"num_layers\": 2"), 15, "\"num_layers\": -2");
  text.replace(text.find("\"head_dim\": 16"), 14, "\"head_dim\": \"16\"");
  text.replace(text.find("\"source\": \"test\""), 16, "\"sorce\": \"test\"");
  const fs::path path = scratch_file("bad_model.json", text);
  const std::string message = error_of([&] { load_model_card(path); });
  CHECK(message.find(path.string() + ": /num_layers: expected an integer >= 1 and <= 2147483647, got -2") != std::string::npos);
  CHECK(message.find("/head_dim: expected an integer >= 1 and <= 2147483647, got \"16\"") != std::string::npos);
  CHECK(message.find("/source: missing field") != std::string::npos);
  CHECK(message.find("/sorce: unknown key") != std::string::npos);
}

TEST_CASE("a valid minimal model card loads") {
  const ModelSpec m = load_model_card(scratch_file("good_model.json", kGoodModel));
  CHECK(m.name == "x");
  CHECK(m.kv_bytes_per_token_bf16().value == 2 * 2 * 2 * 16 * 2);
  CHECK(m.weight_bits == 16);
  CHECK(field_section("model-card")["weight_bits"].default_json.empty());
  CHECK_FALSE(m.moe.has_value());
}

TEST_CASE("a hardware profile rejects bare numbers, missing sources and bad efficiencies") {
  nlohmann::json j = nlohmann::json::parse(
      std::ifstream(source_path("configs/gpus/h100-sxm.json")));
  j["hbm_bandwidth"]["value"] = 3.35e12;
  j["peak_bf16"].erase("source");
  j["compute_efficiency"]["value"] = 1.5;
  j["layer_overhead"]["value"] = "30 parsecs";
  j["gemm_half_tokens"]["value"] = -4;
  j.erase("kernel_floor");
  j["extra"] = 1;
  const fs::path path = scratch_file("bad_gpu.json", j.dump());
  const std::string message = error_of([&] { load_hardware_profile(path); });
  CHECK(message.find(path.string() + ": /hbm_bandwidth/value: expected a byte rate") != std::string::npos);
  CHECK(message.find("/peak_bf16/source: missing field") != std::string::npos);
  CHECK(message.find("/compute_efficiency/value: expected a number in (0, 1], got 1.5") != std::string::npos);
  CHECK(message.find("/layer_overhead/value: expected a positive duration like \"10us\", got \"30 parsecs\"") != std::string::npos);
  CHECK(message.find("/gemm_half_tokens/value: expected a number in [0, inf], got -4") !=
        std::string::npos);
  CHECK(message.find("/kernel_floor: missing field") != std::string::npos);
  CHECK(message.find("/extra: unknown key") != std::string::npos);
}

TEST_CASE("unreadable or malformed files raise CardError naming the file") {
  CHECK(error_of([] { load_model_card("/nonexistent/card.json"); }).find("/nonexistent/card.json") == 0);
  const fs::path path = scratch_file("broken.json", "{\"name\": ");
  CHECK(error_of([&] { load_hardware_profile(path); }).find("invalid JSON") != std::string::npos);
  CHECK_THROWS_AS(list_model_cards("/nonexistent"), CardError);
}

TEST_CASE("the shipped serving-engine profiles load; ideal has no cost and vllm does") {
  const auto engine = [](const char* name) {
    return load_engine_profile(source_path(std::string("configs/engines/") + name + ".json"));
  };
  const EngineSpec ideal = engine("ideal");
  CHECK(ideal.request_admission(32768) == Time::zero());
  CHECK(ideal.decode_handover(8192) == Time::zero());
  CHECK(ideal.step_time(256) == Time::zero());
  CHECK(ideal.step_time(256, 8) == Time::zero());
  CHECK(ideal.layer_host_time(true) == Time::zero());
  CHECK(ideal.layer_host_time(false) == Time::zero());
  const EngineSpec vllm = engine("vllm");
  CHECK(vllm.name == "vllm");
  CHECK(vllm.request_admission(1) > Time::zero());
  CHECK(vllm.decode_handover(8192) > engine("vllm-fast-handover").decode_handover(8192));
  CHECK(engine("vllm-loaded-handover").decode_handover(8192) > vllm.decode_handover(8192));
  CHECK(vllm.decode_handover(8192) - vllm.decode_handover(0) == vllm.tokenize_per_token * 8192);
  CHECK(vllm.step_time(64) > vllm.step_time(1));
  CHECK(vllm.step_time(64, 2) == vllm.step_time(64) + vllm.tp_step_overhead);
  CHECK(vllm.step_time(64, 8) == vllm.step_time(64, 2));
  CHECK(vllm.tp_step_overhead > Time::zero());
  CHECK(engine("sglang").step_time(64) == Time::zero());
  CHECK(engine("mindie").step_time(300) > vllm.step_time(300));
  CHECK(vllm.step_time(64, 1, 64.0 * 4096) == vllm.step_time(64));
  const EngineSpec v0 = engine("vllm-0.5");
  CHECK(v0.step_overhead_per_context_token > Time::zero());
  CHECK(v0.step_time(64, 1, 1e5) - v0.step_time(64) ==
        Time::from_seconds(v0.step_overhead_per_context_token.seconds() * 1e5));
  CHECK_FALSE(v0.prefill_cuda_graphs);
}

TEST_CASE("an engine profile rejects negative durations, non-boolean flags and missing sources") {
  nlohmann::json j = nlohmann::json::parse(
      std::ifstream(source_path("configs/engines/vllm.json")));
  j["kv_connector_setup"]["value"] = "-3ms";
  j["cuda_graphs"]["value"] = "yes";
  j["step_overhead"].erase("source");
  j["tp_comm_overlap"]["value"] = 1.5;
  const fs::path path = scratch_file("bad_engine.json", j.dump());
  const std::string message = error_of([&] { load_engine_profile(path); });
  CHECK(message.find(path.string() + ": /kv_connector_setup/value") != std::string::npos);
  CHECK(message.find("/cuda_graphs/value: expected true or false") != std::string::npos);
  CHECK(message.find("/step_overhead/source: missing field") != std::string::npos);
  CHECK(message.find("/tp_comm_overlap/value: expected a number in [0, 1]") != std::string::npos);
}

TEST_CASE("an unknown key of a model card's section is an error naming the file and path") {
  nlohmann::json card = nlohmann::json::parse(kGoodModel);
  card["moe"] = {{"experts", 8}, {"top_k", 2}, {"shared_experts", 0}, {"expert_ffn_dim", 32},
                 {"first_dense_layers", 0}, {"routing", "softmax"}};
  const fs::path path = scratch_file("unknown_key.json", card.dump());
  CHECK(error_of([&] { load_model_card(path); }) == path.string() + ": /moe/routing: unknown key");
}

TEST_CASE("a hardware quantity without its unit is an error naming the file and path") {
  nlohmann::json j = nlohmann::json::parse(std::ifstream(source_path("configs/gpus/h200.json")));
  j["kernel_launch"]["value"] = 4;
  j["peak_bf16"]["value"] = 989.4e12;
  const fs::path path = scratch_file("no_unit.json", j.dump());
  const std::string message = error_of([&] { load_hardware_profile(path); });
  CHECK(message.find(path.string() +
                     ": /kernel_launch/value: expected a positive duration like \"10us\", got 4") !=
        std::string::npos);
  CHECK(message.find(path.string() + ": /peak_bf16/value: expected an operation rate like") !=
        std::string::npos);
}

TEST_CASE("card values out of their tables' bounds are errors naming the file and path") {
  nlohmann::json card = nlohmann::json::parse(kGoodModel);
  card["weight_bits"] = 32;
  card["max_context"] = 0;
  card["attention"] = {{"kind", "mla"}, {"kv_lora_rank", 512}, {"qk_rope_head_dim", 64},
                       {"qk_nope_head_dim", 128}, {"v_head_dim", 128}, {"q_lora_rank", -1}};
  const fs::path path = scratch_file("out_of_bounds.json", card.dump());
  const std::string message = error_of([&] { load_model_card(path); });
  CHECK(message.find(path.string() + ": /weight_bits: expected an integer >= 4 and <= 16, got 32") !=
        std::string::npos);
  CHECK(message.find(path.string() + ": /max_context: expected an integer >= 1") != std::string::npos);
  CHECK(message.find(path.string() + ": /attention/q_lora_rank: expected an integer >= 0") !=
        std::string::npos);
  nlohmann::json engine =
      nlohmann::json::parse(std::ifstream(source_path("configs/engines/vllm.json")));
  engine["tp_comm_overlap"]["value"] = -0.5;
  engine["step_overhead"]["comment"] = "";
  const fs::path engine_path = scratch_file("engine_bounds.json", engine.dump());
  const std::string engine_message = error_of([&] { load_engine_profile(engine_path); });
  CHECK(engine_message.find(engine_path.string() +
                            ": /tp_comm_overlap/value: expected a number in [0, 1], got -0.5") !=
        std::string::npos);
  CHECK(engine_message.find(engine_path.string() +
                            ": /step_overhead/comment: expected a non-empty string") !=
        std::string::npos);
}

TEST_CASE("a card error is an input error of exit code 2: a ScenarioError with its issues") {
  nlohmann::json card = nlohmann::json::parse(kGoodModel);
  card["colour"] = "blue";
  try {
    model_card_from_json(card, "inline");
    FAIL("expected a CardError");
  } catch (const ScenarioError& e) {
    CHECK(e.file() == "inline");
    REQUIRE(e.issues().size() == 1);
    CHECK(e.issues()[0].json_path == "/colour");
  }
}

}  // namespace
}  // namespace lynxsim::scenario
