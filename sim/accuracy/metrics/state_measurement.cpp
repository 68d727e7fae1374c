#include "sim/accuracy/metrics/state_measurement.hpp"

#include <algorithm>
#include <string>

#include "sim/accuracy/kv/delta_state.hpp"
#include "sim/accuracy/metrics/attention_math.hpp"

namespace lynxsim::accuracy {
namespace {

struct Reference {
  std::vector<float> state;                        // heads · dk · dv
  std::vector<std::vector<DeltaToken>> next;       // per head, the tokens after the context
  std::vector<std::vector<float>> queries;         // per head, unit queries
  std::vector<std::vector<float>> checkpoints;     // state at each continue step
};

std::size_t head_size(const StateShare& s) { return static_cast<std::size_t>(s.dk) * static_cast<std::size_t>(s.dv); }

Reference reference_of(const StateShare& s, const StateProfile& p) {
  Reference r;
  const int steps = p.continue_steps.empty() ? 0 : p.continue_steps.back();
  for (int h = 0; h < s.heads; ++h) {
    const int head = s.share * s.heads + h;
    DeltaInputs inputs(p, s.dk, s.dv, derive_seed(s.seed, "delta-inputs", s.layer, head));
    const std::vector<float> state = run_delta_rule(inputs, s.dk, s.dv, s.tokens);
    r.state.insert(r.state.end(), state.begin(), state.end());
    r.next.emplace_back();
    for (int t = 0; t < steps; ++t) r.next.back().push_back(inputs.next());
    AccuracyRng rng(derive_seed(s.seed, "state-queries", s.layer, head));
    for (int q = 0; q < p.readout_queries; ++q) r.queries.push_back(unit_vector(rng, s.dk));
  }
  return r;
}

void step_all(const StateShare& s, const Reference& r, int t, std::vector<float>& state) {
  for (int h = 0; h < s.heads; ++h) {
    delta_step(state.data() + static_cast<std::size_t>(h) * head_size(s), s.dk, s.dv,
               r.next[static_cast<std::size_t>(h)][static_cast<std::size_t>(t)]);
  }
}

// The sum of the relative readout errors of every head's queries; with a proxy, also the proxy
// token of each approximate readout, appended to `tokens`.
double readout_error_sum(const StateShare& s, const Reference& r, const std::vector<float>& ref,
                         const std::vector<float>& approx, const NextTokenProxy* proxy = nullptr,
                         std::vector<int>* tokens = nullptr) {
  double sum = 0.0;
  const std::size_t per_head = r.queries.size() / static_cast<std::size_t>(s.heads);
  for (std::size_t i = 0; i < r.queries.size(); ++i) {
    const std::size_t offset = (i / per_head) * head_size(s);
    const std::vector<double> o = state_readout(ref.data() + offset, s.dk, s.dv, r.queries[i]);
    const std::vector<double> o_hat = state_readout(approx.data() + offset, s.dk, s.dv, r.queries[i]);
    sum += relative_error(o, o_hat);
    if (proxy != nullptr) tokens->push_back(proxy->token(o_hat));
  }
  return sum;
}

void add_checkpoints(const StateShare& s, const StateProfile& p, Reference& r) {
  std::vector<float> state = r.state;
  std::size_t next = 0;
  for (int t = 0; next < p.continue_steps.size(); ++t) {
    step_all(s, r, t, state);
    if (t + 1 == p.continue_steps[next]) {
      r.checkpoints.push_back(state);
      ++next;
    }
  }
}

StateTally measure_variant(const StateShare& s, const StateProfile& p, const Reference& r, const MethodVariant& v,
                           const NextTokenProxy& proxy) {
  StateTally tally;
  const CodecTarget target{TensorKind::value, v.anchor_only, s.layer, s.num_layers};
  const auto channels = static_cast<int>(r.state.size());
  std::vector<float> state = reconstruct_block(v.method, target, quant::BlockView(r.state, 1, channels));
  tally.state.add(r.state, state);
  tally.readout_sum = readout_error_sum(s, r, r.state, state, &proxy, &tally.tokens);
  tally.readouts = static_cast<int>(r.queries.size());
  std::size_t next = 0;
  for (int t = 0; next < p.continue_steps.size(); ++t) {
    step_all(s, r, t, state);
    if (t + 1 != p.continue_steps[next]) continue;
    tally.continued_state.emplace_back();
    tally.continued_state.back().add(r.checkpoints[next], state);
    tally.continued_readout_sum.push_back(readout_error_sum(s, r, r.checkpoints[next], state));
    ++next;
  }
  return tally;
}

}  // namespace

void StateTally::merge(const StateTally& other) {
  state.merge(other.state);
  readout_sum += other.readout_sum;
  readouts += other.readouts;
  tokens.insert(tokens.end(), other.tokens.begin(), other.tokens.end());
  continued_state.resize(std::max(continued_state.size(), other.continued_state.size()));
  continued_readout_sum.resize(continued_state.size(), 0.0);
  for (std::size_t c = 0; c < other.continued_state.size(); ++c) {
    continued_state[c].merge(other.continued_state[c]);
    continued_readout_sum[c] += other.continued_readout_sum[c];
  }
}

std::vector<StateTally> measure_state_share(const StateShare& s, const StateProfile& p,
                                            const std::vector<MethodVariant>& variants,
                                            const NextTokenProxy& proxy) {
  Reference r = reference_of(s, p);
  add_checkpoints(s, p, r);
  std::vector<StateTally> tallies(variants.size());
  std::vector<std::string> ids;
  for (std::size_t v = 0; v < variants.size(); ++v) {
    ids.push_back(reconstruction_id(variants[v].method, variants[v].anchor_only));
    const auto same = std::find(ids.begin(), ids.end() - 1, ids.back());
    tallies[v] = same != ids.end() - 1 ? tallies[static_cast<std::size_t>(same - ids.begin())]
                                       : measure_variant(s, p, r, variants[v], proxy);
  }
  return tallies;
}

}  // namespace lynxsim::accuracy
