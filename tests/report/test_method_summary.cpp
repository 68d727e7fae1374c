#include <doctest/doctest.h>

#include <algorithm>

#include "sample_results.hpp"
#include "sim/report/method_summary.hpp"
#include "sim/report/result_table.hpp"

using namespace lynxsim;
using namespace lynxsim::report;

TEST_CASE("method summaries aggregate latencies, bytes and speculation counters") {
  const auto results = testing::sample_results();
  const auto summaries = summarize_methods(results);
  REQUIRE(summaries.size() == 3);
  const auto& bf16 = summaries[0];
  CHECK(bf16.ttft_s.mean == doctest::Approx(0.5));
  CHECK(bf16.ttft_s.p50 == doctest::Approx(0.5));
  CHECK(bf16.ttft_s.p90 == doctest::Approx(0.58));
  CHECK(bf16.tpot_s.mean == doctest::Approx(0.01));
  CHECK(bf16.bytes_total == 2 * 16000);
  const auto& lynx = summaries[2];
  CHECK(lynx.speculative);
  CHECK(lynx.ttft_commit_s.mean == doctest::Approx(0.35));
  CHECK(lynx.exposed_transfer_s.mean == doctest::Approx(0.08));
  CHECK(lynx.bytes_per_plane == std::vector<std::int64_t>{8000, 8000});
  CHECK(lynx.rollbacks == 1);
  CHECK(lynx.wasted_draft_tokens == 1);
  CHECK(lynx.measured_acceptance == doctest::Approx(0.8));
  CHECK(lynx.acceptance == doctest::Approx(0.9));
}

TEST_CASE("speedups compare both TTFT readings against the baselines present in the run") {
  const auto results = testing::sample_results();
  const auto summaries = summarize_methods(results);
  const auto& lynx = summaries[2];
  CHECK(lynx.speedup.at("ttft_speculative_s").at("int8") == doctest::Approx(1.5));
  CHECK(lynx.speedup.at("ttft_speculative_s").at("bf16") == doctest::Approx(2.5));
  CHECK(lynx.speedup.at("ttft_commit_s").at("int8") == doctest::Approx(300.0 / 350.0));
  CHECK(lynx.speedup.at("ttft_commit_s").at("bf16") == doctest::Approx(500.0 / 350.0));
  CHECK(lynx.speedup_vs == lynx.speedup.at("ttft_commit_s"));
  CHECK(summaries[1].speedup_vs.at("bf16") == doctest::Approx(5.0 / 3.0));
  CHECK(summaries[1].speedup_vs.at("int8") == doctest::Approx(1.0));

  const std::vector<serving::MethodResult> without_int8{results[0], results[2]};
  const auto partial = summarize_methods(without_int8);
  CHECK(partial[1].speedup_vs.count("int8") == 0);
  CHECK(partial[1].speedup.at("ttft_speculative_s").at("bf16") == doctest::Approx(2.5));
}

TEST_CASE("the client's TTFT follows the stream: committed by default, drafts when they stream") {
  const auto committed = summarize_methods(testing::sample_results())[2];
  CHECK(committed.stream == "committed");
  CHECK(committed.ttft_s.mean == doctest::Approx(0.35));
  CHECK(committed.retracted_tokens == 0);
  const auto streamed = summarize_methods(testing::streaming_drafts())[2];
  CHECK(streamed.stream == "speculative");
  CHECK(streamed.ttft_s.mean == doctest::Approx(0.2));
  CHECK(streamed.speedup_vs.at("int8") == doctest::Approx(1.5));
  CHECK(streamed.retracted_tokens == 1);
  CHECK(streamed.requests_with_retractions == 1);
}

TEST_CASE("the terminal table shows units, speedups and accuracy columns") {
  const auto summaries = summarize_methods(testing::sample_results());
  const std::string table = format_result_table(summaries);
  CHECK(table.find("method") == 0);
  CHECK(table.find("spec vs int8") != std::string::npos);
  CHECK(table.find("commit vs int8") != std::string::npos);
  CHECK(table.find("1.50x") != std::string::npos);
  CHECK(table.find("0.86x") != std::string::npos);
  CHECK(table.find("1.43x") != std::string::npos);
  CHECK(table.find("its TTFT is TTFT_commit") != std::string::npos);
  CHECK(table.find("retracted") == std::string::npos);
  CHECK(table.find("2.50x") != std::string::npos);
  CHECK(table.find("1.67x") != std::string::npos);
  CHECK(table.find("200.00ms") != std::string::npos);
  CHECK(table.find("k_snr_db") != std::string::npos);
  CHECK(table.find("21.5") != std::string::npos);
  CHECK(table.find("0.900") != std::string::npos);
}

TEST_CASE("the terminal table aligns every line to the same width") {
  const auto summaries = summarize_methods(testing::sample_results());
  const std::string table = format_result_table(summaries);
  std::vector<std::size_t> widths;
  std::size_t start = 0;
  for (std::size_t nl = table.find('\n'); nl != std::string::npos; nl = table.find('\n', start)) {
    widths.push_back(nl - start);
    start = nl + 1;
  }
  REQUIRE(widths.size() >= 5 + 3);
  for (std::size_t i = 0; i < 5; ++i) CHECK(widths[i] == widths.front());
}

TEST_CASE("streamed drafts show the retracted tokens and say that the client sees drafts") {
  const std::string table = format_result_table(summarize_methods(testing::streaming_drafts()));
  CHECK(table.find("retracted") != std::string::npos);
  CHECK(table.find("its TTFT is TTFT_spec") != std::string::npos);
}

TEST_CASE("when prefill emits the first token the table compares the first decode token") {
  auto results = testing::sample_results();
  for (auto& r : results) {
    r.first_token_from = serving::FirstTokenSource::prefill;
    for (auto& m : r.requests) {
      m.first_token_at = m.prefill_done_at;
      m.first_commit_at = m.prefill_done_at;
    }
  }
  const auto summaries = summarize_methods(results);
  CHECK(summaries[2].speedup.at("ttft_commit_s").at("int8") == doctest::Approx(1.0));
  CHECK(summaries[2].speedup.at("ttdt_speculative_s").at("int8") == doctest::Approx(1.5));
  std::string table = format_result_table(summaries);
  std::replace(table.begin(), table.end(), '\n', ' ');
  CHECK(table.find("TTDT_commit") != std::string::npos);
  CHECK(table.find("2nd spec vs int8") != std::string::npos);
  CHECK(table.find("every method has the same TTFT") != std::string::npos);
  CHECK(table.find("1.50x") != std::string::npos);
}

TEST_CASE("a baseline missing from the run shows a dash") {
  const auto results = testing::sample_results();
  const std::vector<serving::MethodResult> only_lynx{results[2]};
  const std::string table = format_result_table(summarize_methods(only_lynx));
  CHECK(table.find("1.50x") == std::string::npos);
  CHECK(table.find("2.50x") == std::string::npos);
  CHECK(table.find("0.86x") == std::string::npos);
  CHECK(table.find(" -") != std::string::npos);
}

TEST_CASE("durations and byte counts are printed with adaptive units") {
  CHECK(format_duration_s(1.2345) == "1.234s");
  CHECK(format_duration_s(0.01235) == "12.35ms");
  CHECK(format_duration_s(850e-6) == "850.0us");
  CHECK(format_byte_count(512) == "512B");
  CHECK(format_byte_count(1536) == "1.50KiB");
  CHECK(format_byte_count(64LL << 20) == "64.00MiB");
  CHECK(format_byte_count(5LL << 29) == "2.50GiB");
}

TEST_CASE("the compact table keeps one baseline and one metric, with short labels") {
  TableOptions compact;
  compact.wide = false;
  compact.accuracy_columns = {"k_snr_db", "v_snr_db"};
  const std::string table = format_result_table(summarize_methods(testing::sample_results()), compact);
  CHECK(table.find("spec/int8") != std::string::npos);
  CHECK(table.find("commit/int8") != std::string::npos);
  CHECK(table.find("vs bf16") == std::string::npos);
  CHECK(table.find("/bf16") == std::string::npos);
  CHECK(table.find("E2E") == std::string::npos);
  CHECK(table.find("k_snr_db") != std::string::npos);
  CHECK(table.find("v_snr_db") == std::string::npos);
  CHECK(table.find("accept") != std::string::npos);
  std::size_t start = 0;
  for (std::size_t nl = table.find('\n'); nl != std::string::npos; nl = table.find('\n', start)) {
    CHECK(nl - start <= kTableTextWidth);
    start = nl + 1;
  }
}

TEST_CASE("percentile columns give the client's TTFT p50, p90 and p99") {
  TableOptions options;
  options.percentiles = true;
  const auto summaries = summarize_methods(testing::sample_results());
  const std::string table = format_result_table(summaries, options);
  CHECK(table.find("TTFT p50") != std::string::npos);
  CHECK(table.find("TTFT p99") != std::string::npos);
  CHECK(table.find(format_duration_s(summaries[2].ttft_s.p99)) != std::string::npos);
}

TEST_CASE("text is wrapped at spaces, keeping its line breaks and long words") {
  CHECK(wrap_text("aa bb cc", 5) == "aa bb\ncc");
  CHECK(wrap_text("aa\nbb cc dd", 5) == "aa\nbb cc\ndd");
  CHECK(wrap_text("abcdefgh ij", 4) == "abcdefgh\nij");
  CHECK(wrap_text("", 10).empty());
}

TEST_CASE("a note gives the baseline's exposed transfer as a share of its TTFT") {
  std::string table = format_result_table(summarize_methods(testing::sample_results()));
  std::replace(table.begin(), table.end(), '\n', ' ');
  CHECK(table.find("int8 waits") != std::string::npos);
  CHECK(table.find("for exposed KV transfer") != std::string::npos);
  CHECK(table.find("% of its") != std::string::npos);
}
