#pragma once
// Terminal rendering of an AccuracyResult: a header line (model, context, source, sampling), one
// row per method and variant (bits/element, K and V SNR in dB, attention KL in nats, top-k recall,
// attention-output relative error, next-token proxy agreement with the reference, needle accuracy at
// the full context), the needle accuracy against context length, and the acceptance probability of
// each speculative method.

#include <string>

#include "sim/accuracy/accuracy_result.hpp"

namespace lynxsim::accuracy {

std::string render_accuracy_table(const AccuracyResult& result);

}  // namespace lynxsim::accuracy
