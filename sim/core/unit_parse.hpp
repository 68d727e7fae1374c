#pragma once
// Parsing of quantities written with their unit, as scenario files and the command line give them.
//
// Grammar: a decimal number (optionally signed, with exponent), optional spaces, then a unit from
// the table of the quantity. A missing unit, an unknown unit, trailing text, NaN or infinity is an
// error (UnitError, whose message says what was expected). Decimal prefixes are powers of 1000 and
// binary prefixes (Ki, Mi, Gi, Ti) powers of 1024, for bytes and byte rates alike.
//   time:      ps ns us ms s min h                      "500ns", "1.5 ms"
//   bytes:     B kB KB MB GB TB KiB MiB GiB TiB         "64GiB" (rounded to the nearest byte)
//   bit rate:  bps Kbps kbps Mbps Gbps Tbps, and byte rates B/s kB/s MB/s GB/s TB/s KiB/s MiB/s
//              GiB/s TiB/s converted to bits            "25Gbps", "3.2TB/s"
//   FLOP rate: FLOPS KFLOPS MFLOPS GFLOPS TFLOPS PFLOPS (also TOPS)   "989.4TFLOPS"

#include <stdexcept>
#include <string>
#include <string_view>

#include "sim/core/time.hpp"
#include "sim/core/units.hpp"

namespace lynxsim {

class UnitError : public std::invalid_argument {
public:
  using std::invalid_argument::invalid_argument;
};

// Durations written in input files are at most 30 days, so that an arrival plus the time a run
// takes stays far inside the clock's range (about 106 days).
inline constexpr double kMaxTimeSeconds = 30.0 * 86400.0;

Time parse_time(std::string_view text);
Bytes parse_bytes(std::string_view text);
BitsPerSecond parse_bit_rate(std::string_view text);
BytesPerSecond parse_byte_rate(std::string_view text);
FlopsPerSecond parse_flops_rate(std::string_view text);

// Renderings with the largest unit that keeps the number at least 1 ("25Gbps", "64GiB", "1.5ms");
// they parse back to the same value up to the last bit of the double.
std::string format_bit_rate(BitsPerSecond rate);
std::string format_bytes(Bytes bytes);
std::string format_time(Time t);
std::string format_flops_rate(FlopsPerSecond rate);

}  // namespace lynxsim
