#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include "scenario_test_paths.hpp"
#include "sim/net/network_factory.hpp"
#include "sim/scenario/scenario.hpp"
#include "sim/serving/serving_run.hpp"

using namespace lynxsim;
using namespace lynxsim::scenario;
using nlohmann::json;

namespace {

std::vector<std::filesystem::path> bundled_scenarios() {
  std::vector<std::filesystem::path> files;
  for (const auto& e : std::filesystem::directory_iterator(testing::source_dir() / "scenarios")) {
    if (e.path().extension() == ".json") files.push_back(e.path());
  }
  std::sort(files.begin(), files.end());
  return files;
}

bool same_requests(const std::vector<serving::RequestSpec>& a,
                   const std::vector<serving::RequestSpec>& b) {
  return std::equal(a.begin(), a.end(), b.begin(), b.end(), [](const auto& x, const auto& y) {
    return x.arrival_at == y.arrival_at && x.context_tokens == y.context_tokens &&
           x.output_tokens == y.output_tokens && x.hash_ids == y.hash_ids;
  });
}

bool same_model(const ModelSpec& a, const ModelSpec& b) {
  return a.name == b.name && a.num_layers == b.num_layers && a.hidden_size == b.hidden_size &&
         a.num_heads == b.num_heads && a.num_kv_heads == b.num_kv_heads && a.head_dim == b.head_dim &&
         a.ffn_dim == b.ffn_dim && a.vocab_size == b.vocab_size && a.num_params == b.num_params &&
         a.max_context == b.max_context && a.weight_bits == b.weight_bits &&
         a.moe.has_value() == b.moe.has_value() && a.attention.mla.has_value() == b.attention.mla.has_value() &&
         a.attention.layer_pattern == b.attention.layer_pattern;
}

bool same_gpu(const HardwareSpec& a, const HardwareSpec& b) {
  return a.name == b.name && a.peak_bf16.value == b.peak_bf16.value &&
         a.hbm_capacity == b.hbm_capacity && a.hbm_bandwidth.value == b.hbm_bandwidth.value &&
         a.compute_efficiency == b.compute_efficiency && a.step_overhead == b.step_overhead &&
         a.nic_bandwidth.value == b.nic_bandwidth.value;
}

Time mean_ttft(const Scenario& s) {
  serving::ServingConfig config = s.serving;
  config.make_network = [&s](Simulator& sim) { return net::make_network(sim, s.network); };
  const auto result = serving::run_serving(config, s.methods.at(0), serving::MethodQuality{});
  Time total = Time::zero();
  for (const auto& r : result.requests) total = total + (r.prefill_done_at - r.arrived_at);
  return total;
}

}  // namespace

TEST_CASE("every bundled scenario's resolved form parses back to the same scenario") {
  const auto files = bundled_scenarios();
  REQUIRE(files.size() >= 10);
  for (const auto& file : files) {
    CAPTURE(file.filename().string());
    const Scenario s = load_scenario(file, {}, testing::data_paths());
    ParseOptions options{testing::data_paths(), file.parent_path()};
    const Scenario again = parse_scenario(s.resolved, "resolved", options);
    CHECK(again.resolved == s.resolved);
    CHECK(again.name == s.name);
    CHECK(again.methods.size() == s.methods.size());
    CHECK(same_requests(again.serving.requests, s.serving.requests));
    CHECK(again.network.setup_time == s.network.setup_time);
    CHECK(same_model(again.serving.model, s.serving.model));
    CHECK(same_gpu(again.serving.prefill.gpu, s.serving.prefill.gpu));
    CHECK(same_gpu(again.serving.decode.gpu, s.serving.decode.gpu));
    REQUIRE(again.serving.engine.has_value() == s.serving.engine.has_value());
    if (s.serving.engine) CHECK(again.serving.engine->name == s.serving.engine->name);
    CHECK(s.resolved.at("model").is_object());
    CHECK(s.resolved.at("serving").at("engine").is_object());
  }
}

TEST_CASE("a named network preset is expanded before overrides reach into it") {
  const auto file = testing::source_dir() / "scenarios" / "mooncake-hour-h100-8p8d.json";
  const Scenario base = load_scenario(file, {}, testing::data_paths());
  CHECK(base.resolved.at("network").at("preset") == "leaf-spine-400g");
  CHECK(base.resolved.at("network").at("topology").at("host_link").at("rate") == "400Gbps");
  const Scenario slower = load_scenario(file, {"network.topology.host_link.rate=100Gbps"},
                                        testing::data_paths());
  const auto& topo = std::get<net::LeafSpineTopology>(slower.network.topology);
  CHECK(topo.host_link.rate.value == doctest::Approx(100e9));
  CHECK(slower.resolved.at("network").at("topology").at("host_link").at("rate") == "100Gbps");
  try {
    load_scenario(file, {"network.topology.leaves=0"}, testing::data_paths());
    FAIL("leaves=0 accepted");
  } catch (const ScenarioError& e) {
    REQUIRE_FALSE(e.issues().empty());
    CHECK(e.issues().front().json_path.find("/network/topology") == 0);
    CHECK(e.issues().front().message.find("--set network.topology.leaves=0") != std::string::npos);
  }
}

TEST_CASE("named model, GPU and engine cards are expanded before overrides reach into them") {
  const auto file = testing::source_dir() / "scenarios" / "llama8b-8k-h100-100g.json";
  const Scenario base = load_scenario(file, {}, testing::data_paths());
  const json& model = base.resolved.at("model");
  CHECK(model.at("preset") == "llama-3.1-8b");
  CHECK(model.at("num_layers") == 32);
  CHECK(model.at("gemm_precision") == "auto");
  CHECK_FALSE(model.contains("weight_bits"));  // derived from weight_format, so an override of either holds
  CHECK(base.resolved.at("prefill").at("gpu").at("preset") == "h100-sxm");
  CHECK(base.resolved.at("serving").at("engine").at("preset") == "vllm");
  CHECK(base.serving.model.num_layers == 32);

  const Scenario shallower = load_scenario(file, {"model.num_layers=16"}, testing::data_paths());
  CHECK(shallower.serving.model.num_layers == 16);
  CHECK(shallower.resolved.at("model").at("num_layers") == 16);
  CHECK(mean_ttft(shallower) < mean_ttft(base));

  const Scenario slower = load_scenario(file, {"prefill.gpu.peak_bf16.value=100TFLOPS"},
                                        testing::data_paths());
  CHECK(slower.serving.prefill.gpu.peak_bf16.value == doctest::Approx(100e12));
  CHECK(slower.serving.decode.gpu.peak_bf16.value == base.serving.decode.gpu.peak_bf16.value);
  CHECK(mean_ttft(slower) > mean_ttft(base));

  const Scenario engine = load_scenario(file, {"serving.engine.arrival_to_prefill.value=50ms"},
                                        testing::data_paths());
  REQUIRE(engine.serving.engine.has_value());
  CHECK(engine.serving.engine->arrival_to_prefill == Time::from_ms(50.0));
  CHECK(engine.resolved.at("serving").at("engine").at("preset") == "vllm");

  try {
    load_scenario(file, {"model.num_layers=0"}, testing::data_paths());
    FAIL("num_layers=0 accepted");
  } catch (const ScenarioError& e) {
    REQUIRE_FALSE(e.issues().empty());
    CHECK(e.issues().front().json_path == "/model/num_layers");
    CHECK(e.issues().front().message.find("--set model.num_layers=0") != std::string::npos);
  }
}

TEST_CASE("a card name set by an override is read as a name and resolved to its card") {
  const auto file = testing::source_dir() / "scenarios" / "llama8b-8k-h100-100g.json";
  const Scenario s = load_scenario(file, {"model=qwen2.5-7b", "serving.engine=sglang"},
                                   testing::data_paths());
  CHECK(s.resolved.at("model").at("preset") == "qwen2.5-7b");
  CHECK(s.resolved.at("serving").at("engine").at("preset") == "sglang");
  CHECK(s.serving.engine->name == "sglang");
}
