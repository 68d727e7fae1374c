#include <doctest/doctest.h>

#include "sim/serving/link_series.hpp"

using namespace lynxsim;
using serving::LinkSeries;

TEST_CASE("a link's bins hold its carried load over its capacity") {
  LinkSeries series;
  series.start(3, Time::from_ns(1500.0), 100.0);
  const auto bins = series.utilisation(3, {Time::from_ns(1500.0), 100.0, 100.0}, Time::from_us(4.0));
  CHECK(series.bin_width(Time::from_us(4.0)) == LinkSeries::kFirstBinWidth);
  REQUIRE(bins.size() == 4);
  CHECK(bins[0] == doctest::Approx(0.0));
  CHECK(bins[1] == doctest::Approx(0.5));
  CHECK(bins[2] == doctest::Approx(1.0));
  CHECK(bins[3] == doctest::Approx(1.0));
}

TEST_CASE("bins double in width, merging pairwise, when the run outgrows them") {
  LinkSeries series;
  series.start(0, Time::zero(), 8.0);
  series.add(0, {Time::zero(), 4.0, 8.0}, Time::from_us(10.0));
  series.add(0, {Time::from_us(10.0), 0.0, 8.0}, Time::from_us(70.0));
  const Time end = Time::from_us(100.0);
  CHECK(series.bin_width(end) == Time::from_us(2.0));
  const auto bins = series.utilisation(0, {Time::from_us(70.0), 8.0, 8.0}, end);
  REQUIRE(bins.size() == 50);
  for (std::size_t b = 0; b < 5; ++b) CHECK(bins[b] == doctest::Approx(0.5));
  for (std::size_t b = 5; b < 35; ++b) CHECK(bins[b] == doctest::Approx(0.0));
  for (std::size_t b = 35; b < 50; ++b) CHECK(bins[b] == doctest::Approx(1.0));
}

TEST_CASE("a run of any length keeps at most kBins bins, at least half of them") {
  LinkSeries series;
  series.start(0, Time::from_ms(1.0), 1.0);
  const Time end = Time::from_seconds(3.7);
  const auto bins = series.utilisation(0, {Time::from_ms(1.0), 0.25, 1.0}, end);
  CHECK(bins.size() <= LinkSeries::kBins);
  CHECK(bins.size() > LinkSeries::kBins / 2);
  CHECK(bins.back() == doctest::Approx(0.25));
}

TEST_CASE("only the first kMaxLinks links to carry traffic get a series") {
  LinkSeries series;
  for (std::uint32_t link = 0; link < LinkSeries::kMaxLinks + 10; ++link) series.start(link, Time::zero(), 1.0);
  const LinkSeries::State busy{Time::zero(), 1.0, 1.0};
  CHECK(series.utilisation(LinkSeries::kMaxLinks - 1, busy, Time::from_us(2.0)).size() == 2);
  CHECK(series.utilisation(LinkSeries::kMaxLinks, busy, Time::from_us(2.0)).empty());
  CHECK(series.utilisation(100000, busy, Time::from_us(2.0)).empty());
}
