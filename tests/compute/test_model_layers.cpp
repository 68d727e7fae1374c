#include <doctest/doctest.h>

#include <cmath>
#include <string>

#include <nlohmann/json.hpp>

#include "compute_fixtures.hpp"
#include "sim/compute/expert_parallel.hpp"
#include "sim/compute/timing_model.hpp"
#include "sim/scenario/card_files.hpp"

namespace lynxsim {
namespace {

using scenario::CardError;
using scenario::model_card_from_json;

std::string card_error(const nlohmann::json& card) {
  try {
    model_card_from_json(card, "card.json");
  } catch (const CardError& e) {
    return e.what();
  }
  return "";
}

nlohmann::json tiny_card() {
  return nlohmann::json::parse(R"({"schema_version": 1, "name": "x", "description": "d",
    "num_layers": 4, "hidden_size": 64, "num_heads": 4, "num_kv_heads": 2, "head_dim": 16,
    "ffn_dim": 128, "vocab_size": 100, "num_params": 1e5, "rope_theta": 10000,
    "max_context": 4096, "source": "test"})");
}

}  // namespace

TEST_CASE("KV bytes per token and sequence follow the attention kind of each shipped card") {
  const ModelSpec v3 = test::shipped_model("deepseek-v3");
  CHECK(v3.kv_values_per_token_per_layer() == 576);
  CHECK(v3.kv_bytes_per_token_bf16().value == 576 * 61 * 2);
  CHECK(v3.kv_bytes_bf16(32768).value == std::int64_t{576} * 61 * 2 * 32768);

  const ModelSpec gemma = test::shipped_model("gemma-3-27b");
  CHECK(gemma.layers_of(LayerKind::full) == 10);
  CHECK(gemma.layers_of(LayerKind::sliding) == 52);
  CHECK(gemma.kv_bytes_bf16(32768).value == std::int64_t{2 * 16 * 128 * 2} * (10 * 32768 + 52 * 1024));
  CHECK(gemma.kv_bytes_bf16(500).value == std::int64_t{2 * 16 * 128 * 2} * 62 * 500);

  const ModelSpec oss = test::shipped_model("gpt-oss-120b");
  CHECK(oss.layers_of(LayerKind::sliding) == 18);
  CHECK(oss.kv_bytes_bf16(32768).value == std::int64_t{2 * 8 * 64 * 2} * (18 * 32768 + 18 * 128));

  const ModelSpec next = test::shipped_model("qwen3-next-80b-a3b");
  CHECK(next.layers_of(LayerKind::linear) == 36);
  const std::int64_t state = 32 * 128 * 128 + (2 * 16 * 128 + 32 * 128) * 3;
  CHECK(next.linear_state_bytes_per_layer_bf16().value == state * 2);
  CHECK(next.kv_bytes_bf16(32768).value == std::int64_t{2 * 2 * 256 * 2} * 12 * 32768 + state * 2 * 36);

  CHECK(test::shipped_model("qwen3-235b-a22b").kv_bytes_per_token_bf16().value == 94 * 2 * 4 * 128 * 2);
  CHECK(test::shipped_model("qwen3-30b-a3b").kv_bytes_per_token_bf16().value == 48 * 2 * 4 * 128 * 2);
}

// Active = the layers' active projections + LM head, + the embedding where the publisher counts
// it: DeepSeek-V3 37B (arXiv:2412.19437) and Qwen3 22B / 3.3B (arXiv:2505.09388 table 2) do;
// gpt-oss-120b's 5.13B (arXiv:2508.10925 table 1) does not. Qwen3-Next publishes only "A3B".
TEST_CASE("a MoE card's active parameters match the published active counts") {
  const auto active = [](const char* name, int embeddings) {
    const ModelSpec m = test::shipped_model(name);
    return m.active_linear_params_per_layer() * m.num_layers + embeddings * m.lm_head_params();
  };
  CHECK(active("deepseek-v3", 2) == doctest::Approx(37e9).epsilon(0.02));
  CHECK(active("qwen3-235b-a22b", 2) == doctest::Approx(22e9).epsilon(0.02));
  CHECK(active("qwen3-30b-a3b", 2) == doctest::Approx(3.3e9).epsilon(0.02));
  CHECK(active("gpt-oss-120b", 1) == doctest::Approx(5.13e9).epsilon(0.01));
  CHECK(active("qwen3-next-80b-a3b", 2) >= 3.0e9);
  CHECK(active("qwen3-next-80b-a3b", 2) < 4.0e9);
}

TEST_CASE("distinct experts touched by a batch: E (1 - (1 - k/E)^B)") {
  MoeSpec e;
  e.experts = 256;
  e.top_k = 8;
  CHECK(e.distinct_experts(0) == 0.0);
  CHECK(e.distinct_experts(1) == doctest::Approx(8.0));
  CHECK(e.distinct_experts(2) == doctest::Approx(256.0 * (1.0 - std::pow(1.0 - 8.0 / 256.0, 2))));
  CHECK(e.distinct_experts(1e6) == doctest::Approx(256.0));
}

TEST_CASE("MoE linear FLOPs come from the active parameters and bytes from the touched experts") {
  const ModelSpec m = test::shipped_model("qwen3-30b-a3b");
  const TimingModel timing(m, test::shipped_hardware("h100-sxm"), 1);
  const std::vector<SequenceChunk> one{{1, 100}};
  const LayerBreakdown decode = timing.layer_breakdown(one);
  CHECK(decode.linear.flops == doctest::Approx(2.0 * m.active_linear_params_per_layer()));
  const double attention = m.attention_params(LayerKind::full);
  const double expert = 3.0 * m.hidden_size * 768;
  const double read = attention + m.hidden_size * 128.0 + 8.0 * expert;
  CHECK(m.read_linear_params_per_layer(1) == doctest::Approx(read));
  CHECK(decode.linear.bytes > 2.0 * read);
  CHECK(decode.linear.bytes < 2.0 * read * 1.01);
  const std::vector<SequenceChunk> big{{4096, 0}};
  const double all = attention + m.hidden_size * 128.0 + 128.0 * expert;
  CHECK(timing.layer_breakdown(big).linear.bytes > 2.0 * all * 0.999);
}

TEST_CASE("dense cards time exactly as before the layer kinds existed") {
  ModelSpec m = test::tiny_model();
  CHECK(m.active_linear_params_per_layer() == m.linear_params_per_layer());
  CHECK(m.read_linear_params_per_layer(7) == 36864.0);
  const TimingModel timing(m, test::shipped_hardware("h100-sxm"), 1);
  CHECK(timing.kv_bytes_per_rank(1000).value == timing.kv_bytes_per_token_per_rank().value * 1000);
}

TEST_CASE("sliding-window layers cap decode attention at W tokens; linear layers ignore context") {
  const ModelSpec gemma = test::shipped_model("gemma-3-27b");
  const TimingModel timing(gemma, test::shipped_hardware("h100-sxm"), 1);
  const std::vector<SequenceChunk> short_ctx{{1, 1023}};
  const std::vector<SequenceChunk> long_ctx{{1, 100000}};
  const double kv_row = 2.0 * 2.0 * 128 * 16;
  const double full = 10.0 / 62.0;
  const double slide = 52.0 / 62.0;
  const double q_row = 2.0 * 2.0 * 128 * 32;
  CHECK(timing.layer_breakdown(long_ctx).attention.bytes ==
        doctest::Approx(full * (kv_row * 100001 + q_row) + slide * (kv_row * 1025 + q_row)));
  CHECK(timing.layer_breakdown(short_ctx).attention.bytes ==
        doctest::Approx(kv_row * 1025 + q_row));
  const ModelSpec next = test::shipped_model("qwen3-next-80b-a3b");
  const TimingModel hybrid(next, test::shipped_hardware("h100-sxm"), 1);
  const double full_bytes_1k = hybrid.layer_breakdown(std::vector<SequenceChunk>{{1, 1000}}).attention.bytes;
  const double full_bytes_2k = hybrid.layer_breakdown(std::vector<SequenceChunk>{{1, 2000}}).attention.bytes;
  CHECK(full_bytes_2k - full_bytes_1k == doctest::Approx(12.0 / 48.0 * 1000 * 2.0 * 2.0 * 256 * 2));
}

TEST_CASE("MLA decode reads one latent per token and takes the absorbed path") {
  const ModelSpec v3 = test::shipped_model("deepseek-v3");
  const TimingModel timing(v3, test::shipped_hardware("h800-sxm"), 1);
  const std::vector<SequenceChunk> step{{1, 4095}};
  const OpTiming a = timing.layer_breakdown(step).attention;
  CHECK(a.flops == doctest::Approx(2.0 * 128 * (2 * 512 + 64) * 4095.5));
  CHECK(a.bytes == doctest::Approx(2.0 * 576 * 4097 + 2.0 * 128 * (576 + 512)));
  CHECK(timing.kv_bytes_per_token_per_rank().value == 576 * 2 * 61);
}

TEST_CASE("expert-parallel all-to-all on a single link is bytes over the bus rate plus latency") {
  const HardwareSpec hw = test::shipped_hardware("h800-sxm");
  const double bus = hw.scale_up_bandwidth.value * hw.scale_up_efficiency;
  const Time one = all_to_all_time(hw, 2, Bytes{1'000'000}, 1.0);
  CHECK(one.seconds() == doctest::Approx(1e6 / bus + hw.scale_up_latency.seconds() +
                                         hw.scale_up_step_latency.seconds()));
  CHECK(all_to_all_time(hw, 1, Bytes{1'000'000}, 1.0) == Time::zero());
  CHECK_THROWS(all_to_all_time(hw, 2, Bytes{1}, 0.5));
  const ModelSpec v3 = test::shipped_model("deepseek-v3");
  const Time layer = expert_parallel_layer_time(hw, v3, 2, 128, 1.5);
  const double out = 128.0 * 8 / 2 * 7168 * 2;
  CHECK(layer.seconds() == doctest::Approx(2.0 * (1.5 * out / bus + hw.scale_up_latency.seconds() +
                                                  hw.scale_up_step_latency.seconds())));
  CHECK(expert_parallel_layer_time(hw, test::tiny_model(), 8, 128, 1.0) == Time::zero());
}

TEST_CASE("an FP8 card runs the layers' GEMMs at the profile's FP8 rate, a BF16 card does not") {
  const HardwareSpec hw = test::shipped_hardware("h800-sxm");
  CHECK(hw.peak_fp8.value == doctest::Approx(1978.9e12));
  HardwareSpec no_fp8 = hw;
  no_fp8.peak_fp8 = {0.0};
  const ModelSpec v3 = test::shipped_model("deepseek-v3");
  const SequenceChunk chunk{32768, 0};
  const LayerBreakdown fp8 = TimingModel(v3, hw, 16).layer_breakdown({&chunk, 1});
  const LayerBreakdown bf16 = TimingModel(v3, no_fp8, 16).layer_breakdown({&chunk, 1});
  REQUIRE(fp8.linear.bound == Bound::compute);
  REQUIRE(bf16.linear.bound == Bound::compute);
  const Time floor = hw.kernel_floor * 4;
  CHECK((bf16.linear.time - floor).seconds() ==
        doctest::Approx(1978.9 / 989.4 * (fp8.linear.time - floor).seconds()));
  CHECK(fp8.linear.flops == bf16.linear.flops);
  CHECK(fp8.attention.time == bf16.attention.time);
  const ModelSpec dense = test::shipped_model("llama-3.1-70b");
  CHECK(TimingModel(dense, hw, 4).layer_breakdown({&chunk, 1}).linear.time ==
        TimingModel(dense, no_fp8, 4).layer_breakdown({&chunk, 1}).linear.time);
}

TEST_CASE("attention and moe sections: bad values and unknown keys name their JSON path") {
  nlohmann::json card = tiny_card();
  card["moe"] = {{"experts", 8}, {"top_k", 9}, {"shared_experts", 0}, {"expert_ffn_dim", 32},
                 {"first_dense_layers", 0}, {"routing", "x"}};
  std::string e = card_error(card);
  CHECK(e.find("card.json: /moe/top_k: expected at most the number of experts") != std::string::npos);
  CHECK(e.find("card.json: /moe/routing: unknown key") != std::string::npos);

  card = tiny_card();
  card["attention"] = {{"kind", "gqa"}, {"layer_pattern", "SFX"}, {"kv_lora_rank", 4}};
  e = card_error(card);
  CHECK(e.find("/attention/layer_pattern: expected letters") != std::string::npos);
  CHECK(e.find("/attention/sliding_window: expected exactly when") != std::string::npos);
  CHECK(e.find("/attention/kv_lora_rank: unknown key") != std::string::npos);

  card = tiny_card();
  card["attention"] = {{"kind", "mla"}, {"kv_lora_rank", 32}, {"qk_rope_head_dim", 8},
                       {"qk_nope_head_dim", 16}, {"v_head_dim", 16}, {"q_lora_rank", 0}};
  CHECK(card_error(card).empty());
  card["attention"]["linear"] = {{"key_heads", 1}};
  e = card_error(card);
  CHECK(e.find("/attention/linear/value_heads: missing field") != std::string::npos);
  CHECK(e.find("/attention/linear: expected exactly when layer_pattern has L layers") != std::string::npos);
}

}  // namespace lynxsim
