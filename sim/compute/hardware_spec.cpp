#include "sim/compute/hardware_spec.hpp"

#include <fmt/format.h>

#include "sim/core/unit_parse.hpp"

namespace lynxsim {

std::string describe(const HardwareSpec& hw) {
  return fmt::format("{:<16} BF16 {:>8.1f} TFLOPS, HBM {:>6.1f} GB at {:>5.2f} TB/s, "
                     "scale-up {:>5.0f} GB/s, NIC {}",
                     hw.name, hw.peak_bf16.value * 1e-12, hw.hbm_capacity.as_double() * 1e-9,
                     hw.hbm_bandwidth.value * 1e-12, hw.scale_up_bandwidth.value * 1e-9,
                     format_bit_rate(hw.nic_bandwidth));
}

}  // namespace lynxsim
