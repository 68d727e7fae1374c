#include "sim/net/transfer_engine.hpp"

namespace lynxsim::net {

double engine_rate(const TransferEngineSpec& engine) {
  const double s = engine.descriptor_size.as_double();
  const double bytes_time = engine.descriptor_rate ? s / engine.descriptor_rate->value : 0.0;
  const double per_descriptor = engine.descriptor_cost.seconds() + bytes_time;
  return static_cast<double>(engine.descriptors_in_flight) * s / per_descriptor;
}

}  // namespace lynxsim::net
