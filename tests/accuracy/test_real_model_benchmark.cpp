#include <doctest/doctest.h>

#include <chrono>
#include <cstdlib>
#include <ctime>
#include <iostream>
#include <string>

#include "sim/core/cache_dir.hpp"
#include "sim/accuracy/accuracy_run.hpp"
#include "sim/accuracy/calibration/real_acceptance_calibration.hpp"
#include "sim/accuracy/real_model/real_kv_stats.hpp"
#include "sim/accuracy/real_model/real_model_eval.hpp"
#include "sim/accuracy/real_model/real_model_table.hpp"
#include "sim/llm/model_path.hpp"
#include "sim/store/text_file.hpp"

using namespace lynxsim::accuracy;
using lynxsim::store::load_text_tokens;
using lynxsim::store::read_text_file;
namespace llm = lynxsim::llm;

namespace {

int env_int(const char* name, int fallback) {
  const char* value = std::getenv(name);
  return value != nullptr && *value != '\0' ? std::atoi(value) : fallback;
}

double cpu_seconds() { return static_cast<double>(std::clock()) / CLOCKS_PER_SEC; }

}  // namespace

// The full measurement at one context (LYNXSIM_BENCH_CONTEXT, default 4096) for every default method,
// without the cache, with its wall and CPU time; then the K/V statistics and the acceptance
// calibration. Run: test_accuracy -tc="benchmark*" --no-skip
TEST_CASE("benchmark: the full real-model measurement at 4K tokens" * doctest::skip()) {
  const auto path = llm::find_model(lynxsim::default_cache_dir());
  if (!path) {
    MESSAGE("skipped: " << llm::missing_model_message(lynxsim::default_cache_dir()));
    return;
  }
  const llm::Model model = llm::Model::load(*path);
  RealModelRequest r;
  r.model_path = path->string();
  r.text_path = std::string(LYNXSIM_SOURCE_DIR) + "/data/texts/kv_essay.txt";
  r.text = read_text_file(r.text_path);
  r.contexts = {env_int("LYNXSIM_BENCH_CONTEXT", 4096)};
  r.threads = env_int("LYNXSIM_BENCH_THREADS", 2);
  const auto wall_start = std::chrono::steady_clock::now();
  const double cpu_start = cpu_seconds();
  const RealModelResult result = measure_real_model(model, r);
  const double wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall_start).count();
  std::cout << render_real_model_table(result) << "\nwall " << wall_s << " s, CPU " << cpu_seconds() - cpu_start
            << " s (all threads)\n\n";
  const std::vector<int> text = load_text_tokens(model, r.text_path);
  std::cout << render_kv_statistics(real_kv_statistics(model, std::span<const int>(text).first(2048), default_kv_profile(),
                                                       r.threads, 1))
            << "\n";
  AccuracyRequest proxy;
  proxy.geometry = geometry_of(model.config(), "smollm2-135m");
  proxy.context = r.contexts.front();
  const AccuracyResult proxy_result = measure_accuracy(proxy);
  std::cout << render_calibration_table(fit_acceptance_calibration(result.contexts.front(), proxy_result));
  CHECK(result.contexts.size() == 1);
}

// K/V statistics of Gemma 3 270M on the first 2,048 tokens of the Vim user manual beside the
// llama-like synthetic profile. Run: test_accuracy -tc="benchmark: Gemma*" --no-skip
TEST_CASE("benchmark: Gemma 3 270M K/V statistics at 2K tokens" * doctest::skip()) {
  const auto path = llm::find_model(lynxsim::default_cache_dir(), llm::kGemma3);
  if (!path) {
    MESSAGE("skipped: " << llm::missing_model_message(lynxsim::default_cache_dir(), llm::kGemma3));
    return;
  }
  const llm::Model model = llm::Model::load(*path);
  const std::vector<int> text =
      load_text_tokens(model, std::string(LYNXSIM_SOURCE_DIR) + "/data/texts/vim_user_manual.txt");
  const KvStatistics stats = real_kv_statistics(model, std::span<const int>(text).first(2048), default_kv_profile(),
                                                env_int("LYNXSIM_BENCH_THREADS", 2), 1);
  std::cout << render_kv_statistics(stats) << "\n";
  CHECK(stats.tokens == 2048);
}
