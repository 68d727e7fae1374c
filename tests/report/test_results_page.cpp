#include <doctest/doctest.h>

#include <regex>

#include <nlohmann/json.hpp>

#include "sample_results.hpp"
#include "sim/report/method_summary.hpp"
#include "sim/report/results_page.hpp"
#include "sim/report/summary_json.hpp"
#include "sim/report/svg_chart.hpp"

using namespace lynxsim;
using namespace lynxsim::report;

namespace {

struct Page {
  std::vector<serving::MethodResult> results = testing::sample_results();
  std::vector<MethodSummary> summaries = summarize_methods(results);
  nlohmann::json scenario = {{"name", "<demo> & \"co\""}};

  std::string render(bool with_trace) const {
    return results_page({"<demo>", "vllm", "method  TTFT\n", &scenario, results, summaries, with_trace});
  }
};

std::size_t count(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

}  // namespace

TEST_CASE("every number the page tags equals summary.json's at its pointer") {
  const Page page;
  const std::string html = page.render(false);
  const nlohmann::json summary = summary_json("demo", page.summaries, "vllm");
  const std::regex tag("data-key=\"([^\"]+)\" data-value=\"([^\"]+)\"");
  std::size_t tagged = 0;
  for (auto it = std::sregex_iterator(html.begin(), html.end(), tag); it != std::sregex_iterator(); ++it) {
    const nlohmann::json::json_pointer pointer((*it)[1].str());
    CAPTURE(pointer.to_string());
    CHECK(nlohmann::json::parse((*it)[2].str()) == summary.at(pointer));
    ++tagged;
  }
  CHECK(tagged == 3 * 14 + 4);  // 14 summary cells per method, 1 + 1 + 2 plane cells
  CHECK(html.find("data-key=\"/methods/lynx/ttft_commit_s/mean\" data-value=\"0.35\" data-unit=\"ms\">350.000</td>") !=
        std::string::npos);
}

TEST_CASE("the page is self-contained, escapes its text and is the same for the same inputs") {
  const Page page;
  const std::string html = page.render(false);
  CHECK(html == page.render(false));
  CHECK(count(html, "<svg") == 4);  // TTFT_spec, TTFT_commit (lynx is speculative), TPOT, bytes
  CHECK(count(html, "<script") == 0);
  CHECK(count(html, "src=") == 0);
  CHECK(html.find("<h1>&lt;demo&gt;</h1>") != std::string::npos);
  CHECK(html.find("&lt;demo&gt; &amp; \\&quot;co\\&quot;") != std::string::npos);
  CHECK(html.find("trace.json") == std::string::npos);
  CHECK(page.render(true).find("<a href=\"trace.json\">") != std::string::npos);
}

TEST_CASE("a CDF is drawn through the sample's quantiles") {
  const auto points = cdf_points({0.003, 0.001, 0.002}, 1e3);
  REQUIRE(points.size() == 3);
  CHECK(points[0] == std::pair{1.0, 0.0});
  CHECK(points[1] == std::pair{2.0, 0.5});
  CHECK(points[2] == std::pair{3.0, 1.0});
  CHECK(cdf_points({0.5}, 1.0) == std::vector<std::pair<double, double>>{{0.5, 0.0}, {0.5, 1.0}});
  std::vector<double> large(100000);
  for (std::size_t i = 0; i < large.size(); ++i) large[i] = static_cast<double>(i);
  CHECK(cdf_points(large, 1.0).size() == kCdfPoints);
}

TEST_CASE("axis ticks are nice steps covering the data") {
  CHECK(nice_ticks(0.0, 0.93) == std::vector<double>{0.0, 0.2, 0.4, 0.6000000000000001, 0.8, 1.0});
  CHECK(nice_ticks(0.0, 4.3).back() == 5.0);
  CHECK(nice_ticks(0.0, 0.0).size() >= 2);
  CHECK(html_escape("a<b>&'\"") == "a&lt;b&gt;&amp;&#39;&quot;");
}
