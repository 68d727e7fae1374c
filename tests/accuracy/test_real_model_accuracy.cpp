#include <doctest/doctest.h>

#include <filesystem>
#include <memory>
#include <string>

#include <nlohmann/json.hpp>

#include "accuracy_test_util.hpp"
#include "sim/core/cache_dir.hpp"
#include "sim/accuracy/real_model/real_decode_steps.hpp"
#include "sim/accuracy/real_model/real_model_eval.hpp"
#include "sim/accuracy/tasks/real_passkey.hpp"
#include "sim/llm/model_path.hpp"
#include "sim/store/real_model_cache.hpp"
#include "sim/store/real_model_json.hpp"
#include "sim/store/text_file.hpp"

using namespace lynxsim::accuracy;
using namespace lynxsim::store;
namespace llm = lynxsim::llm;

namespace {

const std::string kText = std::string(LYNXSIM_SOURCE_DIR) + "/data/texts/kv_essay.txt";

const std::vector<int>& text_tokens(const llm::Model& model) {
  static const std::vector<int> tokens = load_text_tokens(model, kText);
  return tokens;
}

const llm::Model* smollm2() {
  static const std::unique_ptr<llm::Model> model = [] {
    const auto path = llm::find_model(lynxsim::default_cache_dir());
    return path ? std::make_unique<llm::Model>(llm::Model::load(*path)) : std::unique_ptr<llm::Model>();
  }();
  if (!model) MESSAGE("skipped: " << llm::missing_model_message(lynxsim::default_cache_dir()));
  return model.get();
}

// One 1K-token prompt, its 16-bit greedy continuation of 256 tokens, and the teacher-forced
// agreement of int8, the Lynx 4+4 anchor and KIVI-2 with the 16-bit KV, computed once.
struct AgreementFixture {
  std::unique_ptr<PrefilledPrompt> prompt;
  std::vector<int> greedy;
  double int8 = 0.0;
  double lynx_anchor = 0.0;
  double kivi2 = 0.0;
};

ForcedPredictions forced(const PrefilledPrompt& p, const KvVariant& v, const std::vector<int>& tokens) {
  llm::Session session = decode_session(p, v);
  return forced_predictions(session, p.last_token, tokens);
}

const AgreementFixture& agreement_fixture(const llm::Model& model) {
  static const AgreementFixture fixture = [&] {
    AgreementFixture f;
    const std::vector<int>& text = text_tokens(model);
    f.prompt = std::make_unique<PrefilledPrompt>(prefill_prompt(model, std::span<const int>(text).first(1024), 2));
    f.greedy = reference_greedy(*f.prompt, 256);
    const auto ref = forced(*f.prompt, KvVariant{method_from_name("bf16"), false}, f.greedy).predicted;
    const auto share = [&](const KvVariant& v) {
      return count_equal(forced(*f.prompt, v, f.greedy).predicted, ref) / static_cast<double>(ref.size());
    };
    f.int8 = share(KvVariant{method_from_name("int8"), false});
    f.lynx_anchor = share(KvVariant{method_from_name("lynx-4+4"), true});
    f.kivi2 = share(KvVariant{method_from_name("kivi2"), false});
    MESSAGE("teacher-forced agreement over 256 tokens after 1024: int8 " << f.int8 << ", lynx-4+4 anchor "
                                                                        << f.lynx_anchor << ", kivi2 " << f.kivi2);
    return f;
  }();
  return fixture;
}

}  // namespace

TEST_CASE("the shipped text is long enough for an 8K context and its continuation") {
  const llm::Model* model = smollm2();
  if (model == nullptr) return;
  CHECK(text_tokens(*model).size() >= 8192 + 256);
}

TEST_CASE("int8 KV agrees with the 16-bit KV on at least 95% of 256 teacher-forced tokens after 1K") {
  const llm::Model* model = smollm2();
  if (model == nullptr) return;
  const AgreementFixture& f = agreement_fixture(*model);
  REQUIRE(f.greedy.size() == 256);
  CHECK(f.int8 >= 0.95);
}

TEST_CASE("teacher-forced agreement orders int8 >= lynx-4+4 anchor >= kivi2") {
  const llm::Model* model = smollm2();
  if (model == nullptr) return;
  const AgreementFixture& f = agreement_fixture(*model);
  CHECK(f.int8 >= f.lynx_anchor);
  CHECK(f.lynx_anchor >= f.kivi2);
}

TEST_CASE("a seven-bit anchor has all six drafts accepted by the full KV") {
  const llm::Model* model = smollm2();
  if (model == nullptr) return;
  CHECK(accepted_prefix(*agreement_fixture(*model).prompt, method_from_name("lynx-7+1"), 6) == 6);
}

TEST_CASE("the 16-bit KV retrieves a passkey hidden in a short filler context") {
  const llm::Model* model = smollm2();
  if (model == nullptr) return;
  const PasskeyPrompt p = make_passkey_prompt(model->tokenizer(), 200, 0.5, 3, 0);
  CHECK(p.tokens.size() <= 200);
  CHECK(p.tokens.size() >= 170);
  CHECK(model->tokenizer().decode(p.tokens).find(p.passkey) != std::string::npos);
  PasskeySettings s;
  s.contexts = {200};
  s.depths = {0.5};
  s.seed = 3;
  const auto found = run_passkey(*model, {KvVariant{method_from_name("bf16"), false}}, s);
  CHECK(found.at(0).at(0) == 1);
}

TEST_CASE("a small real-model measurement is complete, cached, and reread identically") {
  const llm::Model* model = smollm2();
  if (model == nullptr) return;
  RealModelRequest r;
  r.model_path = llm::find_model(lynxsim::default_cache_dir())->string();
  r.text_path = kText;
  r.text = read_text_file(kText);
  r.contexts = {96};
  r.methods = {method_from_name("int8"), method_from_name("lynx-4+4")};
  r.k_max = 4;
  r.acceptance_samples = 2;
  r.acceptance_stride = 4;
  r.continuation_tokens = 12;
  r.passkey_contexts = {};
  const std::string cache_dir = testing::scratch_dir("real_model_run");
  const RealModelResult result = measure_real_model(*model, r);
  const RealContextResult& c = result.at_context(96);
  CHECK(c.rows.size() == 3);
  CHECK(c.row("lynx-4+4").agreements == c.row("int8").agreements);
  CHECK(c.acceptance_of("lynx-4+4").samples() == 2);
  CHECK(c.reference_perplexity > 1.0);
  store_cached_real_result(cache_dir, real_model_cache_key(r), result);
  r.threads = 1;
  const RealModelResult again = run_real_model(r, cache_dir);
  CHECK(again.from_cache);
  CHECK(real_result_to_json(again) == real_result_to_json(result));
  RealModelRequest too_long = r;
  too_long.contexts = {9000};
  CHECK_THROWS_AS(measure_real_model(*model, too_long), std::invalid_argument);
  RealModelRequest past_positions = r;
  past_positions.contexts = {8192};
  past_positions.continuation_tokens = 256;
  CHECK_THROWS_WITH_AS(measure_real_model(*model, past_positions),
                       doctest::Contains("largest context: 7936"), std::invalid_argument);
}
