#include <doctest/doctest.h>

#include <stdexcept>
#include <vector>

#include "sim/report/statistics.hpp"

using namespace lynxsim::report;

TEST_CASE("percentiles interpolate linearly between closest ranks") {
  const std::vector<double> sorted{1.0, 2.0, 3.0, 4.0};
  CHECK(percentile_sorted(sorted, 0.0) == doctest::Approx(1.0));
  CHECK(percentile_sorted(sorted, 0.5) == doctest::Approx(2.5));
  CHECK(percentile_sorted(sorted, 0.9) == doctest::Approx(3.7));
  CHECK(percentile_sorted(sorted, 0.99) == doctest::Approx(3.97));
  CHECK(percentile_sorted(sorted, 1.0) == doctest::Approx(4.0));
}

TEST_CASE("summary of an unsorted sample matches hand-computed numpy values") {
  const std::vector<double> sample{10.0, 0.0, 5.0, 20.0, 15.0};
  const Stats s = summarize(sample);
  CHECK(s.count == 5);
  CHECK(s.mean == doctest::Approx(10.0));
  CHECK(s.p50 == doctest::Approx(10.0));
  CHECK(s.p90 == doctest::Approx(18.0));
  CHECK(s.p99 == doctest::Approx(19.8));
}

TEST_CASE("a one-element sample has every percentile equal to it") {
  const std::vector<double> sample{0.25};
  const Stats s = summarize(sample);
  CHECK(s.mean == 0.25);
  CHECK(s.p50 == 0.25);
  CHECK(s.p99 == 0.25);
}

TEST_CASE("an empty sample summarizes to zeros and percentile_sorted rejects it") {
  const Stats s = summarize(std::vector<double>{});
  CHECK(s.count == 0);
  CHECK(s.mean == 0.0);
  CHECK_THROWS_AS(percentile_sorted(std::vector<double>{}, 0.5), std::invalid_argument);
  CHECK_THROWS_AS(percentile_sorted(std::vector<double>{1.0}, 1.5), std::invalid_argument);
}
