// DecodeInstance under transfer timeouts (decode_instance.hpp, kv_transfer_faults.hpp).

#include <algorithm>

#include "sim/serving/decode_instance.hpp"

namespace lynxsim::serving {

void DecodeInstance::fail(RequestState& request) {
  const bool finished_on_prefill = request.finished;
  split_plan();
  admission_.transfer_done(request);
  admission_.unstage(request);
  std::erase(waiting_, &request);
  std::erase(rejoining_, &request);
  if (request.joined && !request.stalled && !request.finished) leave_batch(request);
  request.finished = true;
  if (request.reserved_bytes == 0) expected_bytes_ -= reservation(request);
  release_for(request);
  --routed_;
  publish_queue();
  if (on_finish_ && !finished_on_prefill) on_finish_(request);
  admission_.pump();
  maybe_start_step();
}

void DecodeInstance::leave_batch(RequestState& request) {
  length_offset_ -= request.kv_length() - request.synced_step;
  if (request.step_kind == RequestState::StepKind::verify) --verifying_;
  request.due_step = -1;
  std::erase(batch_, &request);
}

void DecodeInstance::commit_on_anchor(RequestState& request) {
  request.metrics.degraded = true;
  if (!request.speculating) return;
  split_plan();
  const bool in_batch = request.joined && !request.stalled && !request.finished;
  request.speculating = false;
  if (in_batch) {
    attend_next_step(request);
    return;
  }
  commit_drafts(request);
  if (request.stalled && !request.finished) {
    request.stalled = false;
    rejoining_.push_back(&request);
    publish_queue();
    maybe_start_step();
  }
}

void DecodeInstance::commit_drafts(RequestState& request) {
  const int drafts = request.drafts;
  if (drafts == 0) return;
  request.drafts = 0;
  commit(request, drafts);
}

}  // namespace lynxsim::serving
