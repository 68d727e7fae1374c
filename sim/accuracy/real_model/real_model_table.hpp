#pragma once
// Terminal rendering of a RealModelResult: per context, one row per method variant (bits/element,
// teacher-forced agreement with the 16-bit KV on its greedy tokens and on the text, perplexity and
// its change), then per speculative method the per-token acceptance, the mean accepted prefix for
// k = 1, 2, 4, 8, 16 (those up to k_max) and the accepted-prefix histogram at k_max; then passkey
// accuracy per variant against (context, depth).

#include <string>

#include "sim/accuracy/real_model/real_model_result.hpp"

namespace lynxsim::accuracy {

std::string render_real_model_table(const RealModelResult& result);

}  // namespace lynxsim::accuracy
