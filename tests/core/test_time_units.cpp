#include <doctest/doctest.h>

#include "sim/core/time.hpp"
#include "sim/core/unit_parse.hpp"
#include "sim/core/units.hpp"

using namespace lynxsim;

TEST_CASE("time rounds to the nearest picosecond once") {
  CHECK(Time::from_seconds(1.0).ps() == 1'000'000'000'000);
  CHECK(Time::from_ns(1.4e-3).ps() == 1);
  CHECK(Time::from_ns(1.6e-3).ps() == 2);
  CHECK(Time::from_seconds(-2e-12).ps() == -2);
  CHECK_THROWS_AS(Time::from_seconds(1e9), std::overflow_error);
}

TEST_CASE("unit strings parse to SI values") {
  CHECK(parse_time("500ns") == Time::from_ps(500'000));
  CHECK(parse_time("1.5 ms") == Time::from_ps(1'500'000'000));
  CHECK(parse_time("2min").seconds() == doctest::Approx(120.0));
  CHECK(parse_bytes("64GiB").value == 64LL * 1024 * 1024 * 1024);
  CHECK(parse_bytes("80GB").value == 80'000'000'000LL);
  CHECK(parse_bytes("512B").value == 512);
  CHECK(parse_bit_rate("25Gbps").value == doctest::Approx(25e9));
  CHECK(parse_bit_rate("3.2TB/s").value == doctest::Approx(3.2e12 * 8));
  CHECK(parse_byte_rate("1.6TiB/s").value == doctest::Approx(1.6 * 1024.0 * 1024 * 1024 * 1024));
  CHECK(parse_flops_rate("989.4TFLOPS").value == doctest::Approx(989.4e12));
}

TEST_CASE("unit strings without a known unit are rejected") {
  CHECK_THROWS_AS(parse_bit_rate("25"), UnitError);
  CHECK_THROWS_AS(parse_bit_rate("25Gbit"), UnitError);
  CHECK_THROWS_AS(parse_time("5 parsecs"), UnitError);
  CHECK_THROWS_AS(parse_time(""), UnitError);
  CHECK_THROWS_AS(parse_bytes("GiB"), UnitError);
  CHECK_THROWS_AS(parse_bytes("nanGiB"), UnitError);
  CHECK_THROWS_AS(parse_time("infs"), UnitError);
  CHECK_THROWS_WITH_AS(parse_bit_rate("100"), doctest::Contains("missing unit"), UnitError);
}

TEST_CASE("formatted quantities parse back to the same value") {
  CHECK(format_bit_rate(BitsPerSecond{25e9}) == "25Gbps");
  CHECK(format_bytes(Bytes{64LL << 30}) == "64GiB");
  CHECK(format_bytes(Bytes{1000}) == "1000B");
  CHECK(format_time(Time::from_us(1500)) == "1.5ms");
  for (const double r : {1e3, 2.5e9, 400e9, 7.77e7}) {
    CHECK(parse_bit_rate(format_bit_rate(BitsPerSecond{r})).value == doctest::Approx(r));
  }
}

TEST_CASE("a transfer takes bytes over rate") {
  CHECK(transfer_time(Bytes{1'000'000}, BytesPerSecond{1e9}) == Time::from_us(1000));
  CHECK(BitsPerSecond{8e9}.to_bytes().value == doctest::Approx(1e9));
}
