#include <doctest/doctest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include <nlohmann/json.hpp>

#include "real_model.hpp"
#include "sim/llm/session.hpp"

using namespace lynxsim::llm;

namespace {

const char* const passage =
    "The river starts high in the mountains, where snow melts each spring and feeds a chain of "
    "small lakes. From there it runs east through a narrow valley, past farms, orchards and two "
    "old mills that once ground wheat for the whole region. Near the coast the valley opens into "
    "a wide plain, and the river slows down, splits into several channels and finally reaches "
    "the sea through a marsh that is home to thousands of birds. Every autumn, people from the "
    "nearby towns walk along its banks to watch the herons and to collect apples from the trees "
    "that grow wild near the water. The local school takes its pupils there to measure the depth "
    "of the water and to count the fish, and the results are posted in the town hall. Last "
    "year the count was lower than usual, and a small group of volunteers decided to find out "
    "why. They walked the whole length of the river over three weekends, wrote down every pipe "
    "and ditch that drained into it, and took samples that a laboratory in the city analysed for "
    "free. The report they wrote was short and clear: one of the farms upstream had changed the "
    "way it stored manure, and after heavy rain some of it was washed into a side stream. The "
    "farmer was surprised, paid for a new tank, and invited the volunteers to see it when it was "
    "finished. This spring the fish came back, and the children were the first to notice.";

nlohmann::json read_fixture(const std::string& name) {
  const auto path = std::filesystem::path(LYNXSIM_SOURCE_DIR) / "tests/fixtures/llm" / name;
  std::ifstream in(path);
  REQUIRE_MESSAGE(in.good(), "missing fixture " << path);
  return nlohmann::json::parse(in);
}

}  // namespace

TEST_CASE("the model is the first .gguf file of <cache>/models/smollm2-135m") {
  const auto cache = std::filesystem::path(LYNXSIM_BINARY_DIR) / "test_llm_model_path";
  std::filesystem::remove_all(cache);
  CHECK_FALSE(find_model(cache));
  CHECK(missing_model_message(cache).find("scripts/fetch_model.sh") != std::string::npos);
  CHECK(missing_model_message(cache).find(model_dir(cache).string()) != std::string::npos);
  std::filesystem::create_directories(model_dir(cache));
  std::ofstream(model_dir(cache) / "b.gguf") << "x";
  std::ofstream(model_dir(cache) / "a.gguf") << "x";
  std::ofstream(model_dir(cache) / "c.txt") << "x";
  CHECK(find_model(cache) == model_dir(cache) / "a.gguf");
  CHECK(require_model(cache) == model_dir(cache) / "a.gguf");
}

TEST_CASE("SmolLM2's tokenizer reproduces the token ids of the Hugging Face tokenizer") {
  const Model* model = test::real_model();
  if (model == nullptr) {
    return;
  }
  const nlohmann::json fixture = read_fixture("tokens.json");
  REQUIRE(fixture.at("cases").size() >= 20);
  for (const auto& c : fixture.at("cases")) {
    const std::string text = c.at("text").get<std::string>();
    const std::vector<int> expected = c.at("ids").get<std::vector<int>>();
    CAPTURE(text);
    CHECK(model->tokenizer().encode(text) == expected);
    CHECK(model->tokenizer().decode(expected) == text);
  }
}

TEST_CASE("SmolLM2's configuration is read from its GGUF file") {
  const Model* model = test::real_model();
  if (model == nullptr) {
    return;
  }
  const LlamaConfig& c = model->config();
  CHECK(c.n_layers == 30);
  CHECK(c.n_embd == 576);
  CHECK(c.n_heads == 9);
  CHECK(c.n_kv_heads == 3);
  CHECK(c.head_dim == 64);
  CHECK(c.n_ff == 1536);
  CHECK(c.vocab_size == 49152);
  CHECK(c.context_length == 8192);
  CHECK(c.rope_theta == 100000.0);
  CHECK(model->tied_output());
}

TEST_CASE("SmolLM2's greedy continuation is stable across runs and thread counts") {
  const Model* model = test::real_model();
  if (model == nullptr) {
    return;
  }
  const Tokenizer& tok = model->tokenizer();
  const std::vector<int> prompt = tok.encode(format_chat_prompt("What is the capital of France?"));
  std::vector<std::vector<int>> runs;
  for (const int threads : {1, 1, 2}) {
    Session session(*model, {threads, KvPrecision::F32});
    session.prefill(prompt);
    runs.push_back(session.generate_greedy(12, tok.eos_id()));
  }
  CHECK(runs[0] == runs[1]);
  CHECK(runs[0] == runs[2]);
  CHECK(tok.decode(runs[0]).find("Paris") != std::string::npos);
}

TEST_CASE("SmolLM2's next-token logits match the Hugging Face transformers run") {
  const Model* model = test::real_model();
  if (model == nullptr) {
    return;
  }
  const nlohmann::json fixture = read_fixture("hf_logits.json");
  const std::vector<int> tokens = fixture.at("tokens").get<std::vector<int>>();
  CHECK(model->tokenizer().encode(fixture.at("prompt").get<std::string>()) == tokens);
  Session session(*model, {2, KvPrecision::F32});
  const std::vector<float>& logits = session.prefill(tokens);
  for (const auto& entry : fixture.at("top")) {
    const int id = entry.at(0).get<int>();
    CHECK(logits[static_cast<std::size_t>(id)] ==
          doctest::Approx(entry.at(1).get<double>()).epsilon(2e-3));
  }
  CHECK(argmax(logits) == fixture.at("top").at(0).at(0).get<int>());
}

TEST_CASE("a bf16 KV cache predicts the same next token as the float cache at 99% of positions") {
  const Model* model = test::real_model();
  if (model == nullptr) {
    return;
  }
  const std::vector<int> tokens = model->tokenizer().encode(passage);
  REQUIRE(tokens.size() > 250);
  Session exact(*model, {2, KvPrecision::F32});
  Session half(*model, {2, KvPrecision::Bf16});
  const TokenScores a = exact.score(tokens);
  const TokenScores b = half.score(tokens);
  int agree = 0;
  for (std::size_t i = 1; i < tokens.size(); ++i) {
    agree += a.predicted[i] == b.predicted[i] ? 1 : 0;
  }
  const double agreement = agree / static_cast<double>(tokens.size() - 1);
  MESSAGE("bf16 KV agreement " << agreement << " over " << tokens.size() - 1 << " positions");
  CHECK(agreement >= 0.99);
  CHECK(perplexity(b) == doctest::Approx(perplexity(a)).epsilon(0.02));
  CHECK(perplexity(a) < 30.0);
}
