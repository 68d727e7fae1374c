#pragma once
// What the precision measurement adds to the shared method description (sim/quant/method_spec.hpp):
// which methods it measures by default, the rules a method must follow to be measured, and the
// stored bits per element of each method.
//
// Every family is measured on a [tokens][head_dim] block of one KV head with the layout
// method_spec.hpp describes; cachegen's absmax runs over the channels of the sampled head only, not
// the whole layer, which is slightly optimistic. Speculative methods (lynx, lynx-qs) are measured
// twice: "anchor" and "full".
//
// Bits per element count codes plus fp16 scale and minimum per group (and the bf16 window for KIVI),
// for the KV formats codes plus their float32 scales (format_codec.hpp);
// for cachegen it is the fixed-length code size before entropy coding (an upper bound).

#include <optional>
#include <string>
#include <vector>

#include "sim/quant/method_spec.hpp"

namespace lynxsim::accuracy {

using quant::method_from_name;
using quant::MethodFamily;
using quant::MethodSpec;

// Why the measurement cannot reconstruct a method: a lynx split that is not at least two planes of
// an 8-bit code, or that decodes only on all of them; a cachegen level without bins; an invalid
// method. `field` is the method key concerned ("" for the method as a whole).
struct MeasurableProblem {
  std::string field;
  std::string message;
};
std::optional<MeasurableProblem> measurable_problem(const MethodSpec& method);
// Throws std::invalid_argument naming the method and its measurable_problem, if any.
void check_measurable(const MethodSpec& method);

// bf16, int8, int4, kivi2, kivi4, lynx-4+4, lynx-2+2+4, lynx-3+5, lynx-qs, cachegen, fp8-e4m3, fp8-e5m2,
// int8-pth, fp8-pth, lynx-e4m3-5+3.
std::vector<MethodSpec> default_methods();

// Average stored bits per element of one [tokens][head_dim] block (codes + metadata), for the anchor
// only when anchor_only (speculative families); cachegen averages its per-layer bins over num_layers.
double bits_per_element(const MethodSpec& method, bool anchor_only, int tokens, int head_dim, int num_layers);

}  // namespace lynxsim::accuracy
