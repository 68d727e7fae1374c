#include "sim/serving/workload_synthetic.hpp"

#include <stdexcept>

namespace lynxsim::serving {
namespace {

void validate(const SyntheticWorkload& spec) {
  if (!(spec.rate_per_s > 0.0)) throw std::invalid_argument("arrival rate must be > 0");
  if (!(spec.burstiness > 0.0)) throw std::invalid_argument("burstiness must be > 0");
  if (!spec.count && !spec.duration) {
    throw std::invalid_argument("a synthetic workload needs a request count or a duration");
  }
  if (spec.count && *spec.count < 0) throw std::invalid_argument("request count must be >= 0");
  spec.context.validate();
  spec.output.validate();
}

double gap_seconds(const SyntheticWorkload& spec, RngStream& rng) {
  if (spec.process == ArrivalProcess::poisson) return rng.exponential(spec.rate_per_s);
  const double shape = 1.0 / spec.burstiness;
  return rng.gamma(shape, 1.0 / (shape * spec.rate_per_s));
}

}  // namespace

std::vector<RequestSpec> generate_workload(const SyntheticWorkload& spec, std::uint64_t seed) {
  validate(spec);
  RngStream arrivals = RngStream::named(seed, "workload.arrivals");
  RngStream context = RngStream::named(seed, "workload.context");
  RngStream output = RngStream::named(seed, "workload.output");
  std::vector<RequestSpec> requests;
  const Time end = spec.duration ? spec.start + *spec.duration : Time::max();
  double at_s = spec.start.seconds();
  while (!spec.count || static_cast<int>(requests.size()) < *spec.count) {
    at_s += gap_seconds(spec, arrivals);
    const Time at = Time::from_seconds(at_s);
    if (at > end) break;
    RequestSpec r;
    r.arrival_at = at;
    r.context_tokens = spec.context.sample(context);
    r.output_tokens = spec.output.sample(output);
    requests.push_back(std::move(r));
  }
  return requests;
}

}  // namespace lynxsim::serving
