#include "sim/serving/speculation.hpp"

namespace lynxsim::serving {

int draw_accepted_prefix(RngStream& rng, double acceptance, int drafted) {
  int accepted = 0;
  while (accepted < drafted && rng.bernoulli(acceptance)) ++accepted;
  return accepted;
}

VerificationOutcome verify_drafts(RngStream& rng, double acceptance, int drafted) {
  VerificationOutcome out;
  out.accepted = draw_accepted_prefix(rng, acceptance, drafted);
  out.committed = out.accepted + 1;
  out.wasted = drafted - out.accepted;
  out.rollback = out.accepted < drafted;
  return out;
}

}  // namespace lynxsim::serving
