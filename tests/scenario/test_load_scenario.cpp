#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>

#include "scenario_test_paths.hpp"
#include "sim/scenario/scenario.hpp"

using namespace lynxsim;
using namespace lynxsim::scenario;

namespace {

Scenario quickstart(const std::vector<std::string>& overrides = {}) {
  return load_scenario(testing::source_dir() / "scenarios" / "quickstart.json", overrides,
                       testing::data_paths());
}

}  // namespace

TEST_CASE("every file in scenarios/ loads") {
  int count = 0;
  for (const auto& entry : std::filesystem::directory_iterator(testing::source_dir() / "scenarios")) {
    if (entry.path().extension() != ".json") continue;
    CAPTURE(entry.path().string());
    CHECK_NOTHROW(load_scenario(entry.path(), {}, testing::data_paths()));
    ++count;
  }
  CHECK(count >= 6);
}

TEST_CASE("the quickstart scenario becomes typed values") {
  const Scenario s = quickstart();
  CHECK(s.name == "quickstart");
  CHECK(s.seed == 1);
  CHECK(s.serving.model.name == "llama-3.1-8b");
  CHECK(s.serving.model.num_layers == 32);
  CHECK(s.serving.prefill.gpu.name == "ascend-910b");
  CHECK(s.serving.decode.tensor_parallel == 1);
  REQUIRE(s.serving.requests.size() == 1);
  CHECK(s.serving.requests[0].context_tokens == 32768);
  CHECK(s.serving.requests[0].output_tokens == 128);
  REQUIRE(s.methods.size() == 5);
  CHECK(s.methods[3].name == "lynx");
  CHECK(s.methods[3].speculative());
  CHECK(s.methods[4].family == quant::MethodFamily::cachegen);
  CHECK(s.serving.speculation.max_draft_tokens == 64);
  CHECK(s.accuracy.enabled);
  CHECK(s.network.setup_time == Time::from_ms(1.0));
  const auto* link = std::get_if<net::SingleLinkTopology>(&s.network.topology);
  REQUIRE(link != nullptr);
  CHECK(link->link.rate.value == doctest::Approx(25e9));
  CHECK(link->link.latency == Time::from_us(10.0));
  CHECK(link->link.efficiency == doctest::Approx(0.85));
}

TEST_CASE("overrides change values by dotted path, parsing JSON values") {
  const Scenario s = quickstart({"network.bandwidth=10Gbps", "workload.requests.0.context=8192",
                                 R"(methods=["int8","lynx"])", "serving.streaming=after_prefill",
                                 "seed=42"});
  const auto& link = std::get<net::SingleLinkTopology>(s.network.topology);
  CHECK(link.link.rate.value == doctest::Approx(10e9));
  CHECK(s.serving.requests[0].context_tokens == 8192);
  REQUIRE(s.methods.size() == 2);
  CHECK(s.methods[0].name == "int8");
  CHECK(s.serving.streaming == serving::StreamingMode::after_prefill);
  CHECK(s.seed == 42);
  CHECK(s.accuracy.seed == 42);
  CHECK(s.resolved.at("seed") == 42);
}

TEST_CASE("an override of an unknown path is an error naming it") {
  try {
    quickstart({"network.bandwdth=10Gbps"});
    FAIL("expected a ScenarioError");
  } catch (const ScenarioError& e) {
    REQUIRE(e.issues().size() == 1);
    CHECK(e.issues()[0].json_path == "/network/bandwdth");
    CHECK(e.issues()[0].message.find("--set network.bandwdth=10Gbps") != std::string::npos);
  }
  CHECK_THROWS_AS(quickstart({"workload.requests.5.context=1"}), ScenarioError);
  CHECK_THROWS_AS(quickstart({"seed.x=1"}), ScenarioError);
  CHECK_THROWS_AS(quickstart({"no-equals-sign"}), ScenarioError);
}

TEST_CASE("the resolved scenario fills in every default and parses back to the same scenario") {
  const Scenario s = load_scenario(testing::source_dir() / "scenarios" / "llama8b-8k-h100-100g.json",
                                   {}, testing::data_paths());
  const auto& r = s.resolved;
  CHECK(r.at("serving").at("streaming") == "layerwise");
  CHECK(r.at("serving").at("first_token_from") == "decode");
  CHECK(r.at("serving").at("max_decode_batch") == 256);
  CHECK(r.at("speculation").at("max_draft_tokens") == 64);
  CHECK(r.at("accuracy").at("seed") == 7);
  CHECK(r.at("prefill").at("tp") == 1);
  CHECK(r.at("workload").at("start") == "0s");
  CHECK(r.at("network").at("setup_time") == "1ms");
  CHECK(r.at("methods").at(4).at("planes") == nlohmann::json::array({4, 4}));
  CHECK(r.at("methods").at(4).at("decode_after_planes") == 1);
  const Scenario again = parse_scenario(r, "resolved", testing::parse_options());
  CHECK(again.resolved == r);
  CHECK(again.serving.requests.size() == 4);
  CHECK(again.serving.requests[3].arrival_at == Time::from_ms(1500.0));
}

TEST_CASE("method objects override preset fields") {
  const Scenario s = load_scenario(testing::source_dir() / "scenarios" / "lynx-splits-910b-25g.json",
                                   {}, testing::data_paths());
  REQUIRE(s.methods.size() == 6);
  CHECK(s.methods[2].name == "lynx-2+2+4");
  CHECK(s.methods[2].planes == std::vector<int>{2, 2, 4});
  CHECK(s.methods[2].bits == 8);
  CHECK(s.methods[3].decode_after_planes == 2);
  CHECK(s.methods[5].anchor_scheme == quant::AnchorScheme::quantspec);
  CHECK(s.serving.speculation.max_draft_tokens == 32);
}

TEST_CASE("a cachegen method object sets the adaptation and coder parameters") {
  const Scenario s = quickstart(
      {R"(methods=[{"preset":"cachegen","cachegen":{"chunk_tokens":1000,"slo":"500ms",)"
       R"("initial_bandwidth":"10Gbps","encode_throughput":"40GB/s","decode_throughput":"5GB/s"}}])"});
  REQUIRE(s.methods.size() == 1);
  const auto& c = s.methods[0].cachegen;
  CHECK(c.chunk_tokens == 1000);
  CHECK(c.slo_s == doctest::Approx(0.5));
  CHECK(c.initial_bandwidth_bytes_per_s == doctest::Approx(1.25e9));
  CHECK(c.encode_mb_per_s == doctest::Approx(40000.0));
  CHECK(c.decode_mb_per_s == doctest::Approx(5000.0));
  const auto& resolved = s.resolved.at("methods").at(0).at("cachegen");
  CHECK(resolved.at("chunk_tokens") == 1000);
  CHECK(resolved.at("slo") == "500ms");
  CHECK(resolved.at("decode_throughput") == "40Gbps");
}

TEST_CASE("inline model and GPU cards are read with the card schema") {
  nlohmann::json doc = quickstart().resolved;
  nlohmann::json model = nlohmann::json::parse(R"({"schema_version": 1, "name": "tiny",
      "description": "a tiny model", "num_layers": 2, "hidden_size": 64, "num_heads": 4,
      "num_kv_heads": 2, "head_dim": 16, "ffn_dim": 128, "vocab_size": 1000, "num_params": 1e6,
      "rope_theta": 10000, "max_context": 65536, "source": "test"})");
  doc["model"] = model;
  const Scenario s = parse_scenario(doc, "inline", testing::parse_options());
  CHECK(s.serving.model.name == "tiny");
  CHECK(s.serving.model.num_layers == 2);
  model["num_layers"] = -2;
  doc["model"] = model;
  try {
    parse_scenario(doc, "inline", testing::parse_options());
    FAIL("expected a ScenarioError");
  } catch (const ScenarioError& e) {
    REQUIRE(!e.issues().empty());
    CHECK(e.issues()[0].json_path == "/model/num_layers");
  }
}

TEST_CASE("a synthetic workload is drawn from the scenario seed") {
  nlohmann::json doc = quickstart().resolved;
  doc["workload"] = nlohmann::json::parse(R"({"synthetic": {"process": "poisson",
      "rate_per_s": 2.0, "count": 20, "context": {"kind": "uniform", "min": 1024, "max": 8192},
      "output": 64}})");
  const Scenario a = parse_scenario(doc, "synthetic", testing::parse_options());
  const Scenario b = parse_scenario(doc, "synthetic", testing::parse_options());
  REQUIRE(a.serving.requests.size() == 20);
  for (std::size_t i = 0; i < 20; ++i) {
    CHECK(a.serving.requests[i].arrival_at == b.serving.requests[i].arrival_at);
    CHECK(a.serving.requests[i].context_tokens >= 1024);
    CHECK(a.serving.requests[i].context_tokens <= 8192);
    CHECK(a.serving.requests[i].output_tokens == 64);
  }
  CHECK(a.resolved.at("workload").at("synthetic").at("burstiness") == 1.0);
  doc["seed"] = 99;
  const Scenario c = parse_scenario(doc, "synthetic", testing::parse_options());
  CHECK(c.serving.requests[5].arrival_at != a.serving.requests[5].arrival_at);
  doc["workload"]["synthetic"]["rate_per_s"] = "fast";
  CHECK_THROWS_AS(parse_scenario(doc, "synthetic", testing::parse_options()), ScenarioError);
}

TEST_CASE("a trace workload replays a Mooncake trace relative to the scenario folder") {
  const auto dir = std::filesystem::path(LYNXSIM_BINARY_DIR) / "test_scenario" / "trace";
  std::filesystem::create_directories(dir);
  {
    std::ofstream out(dir / "tiny.jsonl");
    out << R"({"timestamp": 0, "input_length": 4000, "output_length": 10, "hash_ids": [1]})" << "\n"
        << R"({"timestamp": 500, "input_length": 9000, "output_length": 20, "hash_ids": [2]})" << "\n";
  }
  nlohmann::json doc = quickstart().resolved;
  doc["workload"] = {{"trace", {{"file", "tiny.jsonl"}, {"format", "mooncake"}}}};
  ParseOptions options = testing::parse_options();
  options.base_dir = dir;
  const Scenario s = parse_scenario(doc, "trace", options);
  REQUIRE(s.serving.requests.size() == 2);
  CHECK(s.serving.requests[1].context_tokens == 9000);
  CHECK(s.serving.requests[1].arrival_at == Time::from_ms(500.0));
  doc["workload"]["trace"]["file"] = "missing.jsonl";
  try {
    parse_scenario(doc, "trace", options);
    FAIL("expected a ScenarioError");
  } catch (const ScenarioError& e) {
    CHECK(e.issues().at(0).json_path == "/workload/trace/file");
  }
}

TEST_CASE("speculation.stream chooses what the client sees, committed by default") {
  const Scenario plain = quickstart();
  CHECK(plain.serving.speculation.stream == serving::SpeculationStream::committed);
  CHECK(plain.resolved.at("speculation").at("stream") == "committed");
  const Scenario drafts = quickstart({"speculation.stream=speculative"});
  CHECK(drafts.serving.speculation.stream == serving::SpeculationStream::speculative);
  CHECK(drafts.resolved.at("speculation").at("stream") == "speculative");
  try {
    quickstart({"speculation.stream=drafts"});
    FAIL("expected a ScenarioError");
  } catch (const ScenarioError& e) {
    REQUIRE(e.issues().size() == 1);
    CHECK(e.issues()[0].json_path == "/speculation/stream");
    CHECK(e.issues()[0].message.find("\"committed\", \"speculative\"") != std::string::npos);
  }
}

TEST_CASE("serving.engine defaults to vllm, takes a preset or an inline profile, and rejects others") {
  const Scenario s = quickstart();
  REQUIRE(s.serving.engine.has_value());
  CHECK(s.serving.engine->name == "vllm");
  CHECK(s.resolved["serving"]["engine"]["preset"] == "vllm");
  CHECK(s.resolved["serving"]["engine"]["name"] == "vllm");
  CHECK(quickstart({"serving.engine=ideal"}).serving.engine->decode_handover(8192) == Time::zero());
  try {
    quickstart({"serving.engine=tgi"});
    FAIL("no error for an unknown engine");
  } catch (const ScenarioError& e) {
    REQUIRE(!e.issues().empty());
    CHECK(e.issues().front().json_path == "/serving/engine");
    CHECK(e.issues().front().message.find("unknown serving engine \"tgi\"") != std::string::npos);
  }
}
