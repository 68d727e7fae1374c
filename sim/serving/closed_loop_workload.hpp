#pragma once
// The requests of a closed-loop or capped client (client.hpp): N requests, their lengths and the
// time each becomes ready to send, as `vllm bench serve --num-prompts N --request-rate R
// --burstiness b` makes them (vllm/benchmarks/serve.py, get_request):
//   without a rate (R = inf) every request is ready at 0;
//   with one, gaps g_i ~ Gamma(shape b, scale 1 / (R b)) (mean 1 / R, squared coefficient of
//   variation 1 / b: b = 1 is Poisson, b < 1 burstier, b > 1 more regular), ready times
//   t_i = g_0 + ... + g_i, rescaled by N / (R t_{N-1}) so that the last is ready at exactly N / R
//   ("to close the 1-2% gap" of the raw sum, serve.py); the first request waits g_0.
// Note the burstiness runs the other way from the synthetic workload's (workload_synthetic.hpp,
// b = 1 / shape): here it is vLLM's --burstiness, the gamma shape.
// Lengths are drawn from the scenario seed's "workload.context" and "workload.output" streams and
// the gaps from "workload.arrivals", so every method sees the same requests and ready times.

#include <cstdint>
#include <optional>
#include <vector>

#include "sim/serving/length_distribution.hpp"
#include "sim/serving/serving_config.hpp"

namespace lynxsim::serving {

// `count` requests with lengths drawn from the two distributions, all ready at 0.
std::vector<RequestSpec> sample_requests(int count, const LengthDistribution& context,
                                         const LengthDistribution& output, std::uint64_t seed);

// Sets every request's arrival_at to its ready time (above); no rate: 0. Throws
// std::invalid_argument for a rate or burstiness that is not > 0.
void set_ready_times(std::vector<RequestSpec>& requests, std::optional<double> rate_per_s,
                     double burstiness, std::uint64_t seed);

}  // namespace lynxsim::serving
