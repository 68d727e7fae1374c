#pragma once
// Speculative decoding on the anchor planes, verified when the full KV has arrived.
//
// While only the anchor is there, each decode step drafts one token. A verification pass over the
// k drafts with the full KV accepts a prefix of them: with a per-token acceptance probability p,
// assumed independent across positions, the accepted prefix length A has
//   P(A = a) = p^a (1 - p) for a < k,   P(A = k) = p^k.
// The pass also yields the verified model's own next token (the correction after a rejection, or a
// bonus token after a full acceptance), so it commits A + 1 tokens; k - A drafts are wasted and a
// rejection (A < k) counts as a rollback. Acceptance 1 commits every draft, acceptance 0 only the
// corrected first token.

#include "sim/core/rng.hpp"

namespace lynxsim::serving {

int draw_accepted_prefix(RngStream& rng, double acceptance, int drafted);

struct VerificationOutcome {
  int accepted = 0;
  int committed = 0;
  int wasted = 0;
  bool rollback = false;
};

VerificationOutcome verify_drafts(RngStream& rng, double acceptance, int drafted);

}  // namespace lynxsim::serving
