#include "sim/serving/closed_loop_workload.hpp"

#include <algorithm>
#include <stdexcept>

namespace lynxsim::serving {

std::vector<RequestSpec> sample_requests(int count, const LengthDistribution& context,
                                         const LengthDistribution& output, std::uint64_t seed) {
  context.validate();
  output.validate();
  RngStream context_rng = RngStream::named(seed, "workload.context");
  RngStream output_rng = RngStream::named(seed, "workload.output");
  std::vector<RequestSpec> requests(static_cast<std::size_t>(std::max(count, 0)));
  for (RequestSpec& r : requests) {
    r.context_tokens = context.sample(context_rng);
    r.output_tokens = output.sample(output_rng);
  }
  return requests;
}

void set_ready_times(std::vector<RequestSpec>& requests, std::optional<double> rate_per_s,
                     double burstiness, std::uint64_t seed) {
  if (!(burstiness > 0.0)) throw std::invalid_argument("burstiness must be > 0");
  if (rate_per_s && !(*rate_per_s > 0.0)) throw std::invalid_argument("a request rate must be > 0");
  if (!rate_per_s || requests.empty()) {
    for (RequestSpec& r : requests) r.arrival_at = Time::zero();
    return;
  }
  RngStream rng = RngStream::named(seed, "workload.arrivals");
  std::vector<double> at(requests.size());
  double sum = 0.0;
  for (double& t : at) {
    sum += rng.gamma(burstiness, 1.0 / (*rate_per_s * burstiness));
    t = sum;
  }
  const double scale = static_cast<double>(requests.size()) / *rate_per_s / sum;
  for (std::size_t i = 0; i < requests.size(); ++i) {
    requests[i].arrival_at = Time::from_seconds(at[i] * scale);
  }
}

}  // namespace lynxsim::serving
