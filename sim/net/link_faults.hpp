#pragma once
// Link faults: outages of a named link (both directions), during which its line rate is zero.
//
// A fault is one of
//   an outage      down at `down_at` for `down_for`;
//   a flap         `count` outages of `down_for`, the k-th down at down_at + k * every
//                  (every > down_for, so a flap's outages do not overlap);
//   random         outages of `down_for` starting as a Poisson process of `failures_per_s` from
//                  `down_at` until `until`, drawn from the simulator's stream "net.fault.<i>" (the
//                  scenario seed fixes them).
// Outages of several faults on one link may overlap: the link is down while any of them lasts and
// comes back at the rate it had when the first began. A flow crossing a down link keeps its bytes
// and sends nothing (its rate is zero, as an RDMA queue pair that retransmits until the link
// returns, within its retry budget of 4.096 us x 2^timeout per try: HCCL_RDMA_TIMEOUT,
// NCCL_IB_TIMEOUT); it is not lost, and no sender times out. A link with a bandwidth trace takes no faults (the two would both set
// its rate).
// Units: simulated time, failures per simulated second.

#include <optional>
#include <string>
#include <vector>

#include "sim/core/time.hpp"

namespace lynxsim::net {

class FlowNetwork;

struct LinkFaultSpec {
  std::string link;
  Time down_at = Time::zero();
  Time down_for;
  std::optional<Time> every;
  int count = 1;
  double failures_per_s = 0.0;  // > 0: random outages
  Time until = Time::zero();
};

// Why a fault cannot be played (no positive down_for, a flap whose period does not exceed its
// outage, random outages without an `until` after down_at), or nullopt.
std::optional<std::string> link_fault_problem(const LinkFaultSpec& fault);

// Schedules every outage of `faults` on `network` (from time zero).
void play_link_faults(FlowNetwork& network, const std::vector<LinkFaultSpec>& faults);

}  // namespace lynxsim::net
