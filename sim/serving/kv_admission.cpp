#include "sim/serving/kv_admission.hpp"

#include <vector>

#include "sim/serving/serving_events.hpp"

namespace lynxsim::serving {

KvAdmission::KvAdmission(Simulator& sim, int instance, const KvAdmissionSpec& spec,
                         const RankMemory& memory, BytesOf reservation, BytesOf staging, Callback admit)
    : sim_(sim), instance_(instance), spec_(spec), memory_(memory), reservation_(std::move(reservation)),
      staging_(std::move(staging)), admit_(std::move(admit)) {}

void KvAdmission::ask(RequestState& request) {
  request.kv_asked_at = sim_.now();
  queue_.push_back(&request);
  pump();
  if (!request.transfer_in_flight) publish();
}

bool KvAdmission::fits(const RequestState& request, int rank) const {
  if (reserves()) return memory_.fits(rank, reservation_(request));
  return spec_.staging_capacity.value == 0 || staged_ + staging_(request) <= spec_.staging_capacity.value;
}

void KvAdmission::take(RequestState& request) {
  request.metrics.kv_admission_wait = sim_.now() - request.kv_asked_at;
  request.transfer_in_flight = true;
  ++in_flight_;
  if (!reserves()) {
    request.staged_bytes = staging_(request);
    staged_ += request.staged_bytes;
  }
  publish();
  admit_(request);
}

void KvAdmission::publish() const {
  if (!sim_.bus().has_subscribers<KvAdmissionChanged>()) return;
  sim_.bus().publish(KvAdmissionChanged{instance_, staged_, in_flight_, static_cast<int>(queue_.size()), sim_.now()});
}

void KvAdmission::pump() {
  const int queues = reserves() ? memory_.ranks() : 1;
  std::vector<char> blocked(static_cast<std::size_t>(queues), 0);
  int blocked_queues = 0;
  const auto room = [this] { return spec_.max_inflight_transfers == 0 || in_flight_ < spec_.max_inflight_transfers; };
  for (auto it = queue_.begin(); it != queue_.end() && blocked_queues < queues && room();) {
    RequestState& request = **it;
    const int rank = reserves() ? memory_.rank_of(request.metrics.id) : 0;
    char& queue_blocked = blocked[static_cast<std::size_t>(rank)];
    if (!queue_blocked && fits(request, rank)) {
      it = queue_.erase(it);
      take(request);
      continue;
    }
    blocked_queues += queue_blocked ? 0 : 1;
    queue_blocked = 1;
    ++it;
  }
}

void KvAdmission::transfer_done(RequestState& request) {
  if (!request.transfer_in_flight) return;
  request.transfer_in_flight = false;
  --in_flight_;
  publish();
  pump();
}

void KvAdmission::unstage(RequestState& request) {
  if (request.staged_bytes == 0) return;
  staged_ -= request.staged_bytes;
  request.staged_bytes = 0;
  publish();
  pump();
}

}  // namespace lynxsim::serving
