#pragma once
// The bridge between the serving layer's transfer methods and model cards and the accuracy layer's
// own plain structs (sim/accuracy does not see the serving or compute layers).

#include "sim/accuracy/methods/quant_method.hpp"
#include "sim/compute/model_spec.hpp"
#include "sim/serving/kv_bytes.hpp"
#include "sim/serving/transfer_method.hpp"

namespace lynxsim::app {

using serving::kv_geometry_of;
accuracy::QuantMethodSpec accuracy_method_of(const serving::TransferMethod& method);

}  // namespace lynxsim::app
