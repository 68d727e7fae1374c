#include "sim/serving/decode_instance.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <stdexcept>

#include "sim/serving/serving_events.hpp"
#include "sim/serving/speculation.hpp"

namespace lynxsim::serving {

namespace {

std::int64_t usable_bytes(const TimingModel& timing, double usable_fraction) {
  return static_cast<std::int64_t>(static_cast<double>(timing.hardware().hbm_capacity.value) * usable_fraction);
}

}  // namespace

bool DecodeInstance::later(const Due& a, const Due& b) {
  return a.step != b.step ? a.step > b.step : a.order > b.order;
}

DecodeInstance::DecodeInstance(Simulator& sim, const TimingModel& timing, KernelStream& kernels,
                               DecodeParams params, Callback on_finish)
    : sim_(sim), timing_(timing), kernels_(kernels), params_(params), on_finish_(std::move(on_finish)),
      memory_(timing.parallel_layout().attention_dp, usable_bytes(timing, params.usable_fraction),
              timing.weight_bytes_per_rank().value),
      admission_(sim, params.index, params.admission, memory_,
                 [this](const RequestState& r) { return reservation(r); },
                 [this](const RequestState& r) { return staging_bytes(r); },
                 [this](RequestState& r) { transfer_admitted(r); }) {
  const std::int64_t weights = timing.weight_bytes_per_rank().value;
  kv_per_token_ = timing.kv_bytes_per_token_per_rank().value;
  layered_kv_ = timing.kv_bytes_per_rank(1).value != kv_per_token_;
  if (weights >= memory_.capacity()) {
    throw std::invalid_argument(fmt::format(
        "decode instance {}: weights ({} bytes per rank) exceed the usable HBM ({} bytes)",
        params.index, weights, memory_.capacity()));
  }
  kernels_.on_submit([this](Time start) {
    if (!plan_.empty() && start < plan_.back().end) split_plan();
  });
}

void DecodeInstance::on_decode_ready(RequestState& request) {
  if (request.metrics.failed()) return;
  request.speculating = !request.full_kv && !request.metrics.degraded;
  if (request.finished) {
    request.metrics.decode_joined_at = sim_.now();
    if (request.reserved_bytes == 0) expected_bytes_ -= reservation(request);
    release_for(request);
    --routed_;
    admission_.unstage(request);
    return;
  }
  split_plan();
  request.memory_clock_at_ready = memory_.blocked_clock(memory_.rank_of(request.metrics.id), sim_.now());
  waiting_.push_back(&request);
  publish_queue();
  maybe_start_step();
}

void DecodeInstance::on_full_kv(RequestState& request) {
  if (!request.speculating) return;
  split_plan();
  const bool in_batch = request.joined && !request.stalled && !request.finished;
  if (in_batch) attend_next_step(request);
  request.speculating = false;
  if (request.drafts > 0) request.verify_pending = true;
  if (request.stalled) {
    request.stalled = false;
    rejoining_.push_back(&request);
    publish_queue();
    maybe_start_step();
  }
}

void DecodeInstance::attend_next_step(RequestState& request) {
  catch_up(request, steps_);
  if (request.due_step == steps_ + 1) return;
  request.due_step = steps_ + 1;
  due_.push_back({request.due_step, request.batch_order, &request});
  std::push_heap(due_.begin(), due_.end(), later);
}

void DecodeInstance::admit(RequestState& request) {
  if (!request.joined) {
    request.metrics.decode_joined_at = sim_.now();
    const int rank = memory_.rank_of(request.metrics.id);
    request.metrics.memory_wait_time = memory_.blocked_clock(rank, sim_.now()) - request.memory_clock_at_ready;
    if (request.reserved_bytes == 0) reserve_for(request);
    admission_.unstage(request);
  }
  request.joined = true;
  request.synced_step = steps_;
  request.batch_order = next_order_++;
  length_offset_ += request.kv_length() - steps_;
  batch_.push_back(&request);
  plan(request);
  request.due_step = steps_ + 1;
  due_.push_back({request.due_step, request.batch_order, &request});
  std::push_heap(due_.begin(), due_.end(), later);
}

bool DecodeInstance::batch_has_room() const { return static_cast<int>(batch_.size()) < params_.max_batch; }

void DecodeInstance::admit_rejoining() {
  while (!rejoining_.empty() && batch_has_room()) {
    admit(*rejoining_.front());
    rejoining_.pop_front();
  }
}

void DecodeInstance::admit_waiting() {
  admit_rejoining();
  std::vector<char> blocked(static_cast<std::size_t>(memory_.ranks()), 0);
  int blocked_ranks = 0;
  for (auto it = waiting_.begin(); it != waiting_.end() && batch_has_room() && blocked_ranks < memory_.ranks();) {
    const int rank = memory_.rank_of((*it)->metrics.id);
    char& rank_blocked = blocked[static_cast<std::size_t>(rank)];
    if (!rank_blocked && ((*it)->reserved_bytes > 0 || memory_.fits(rank, reservation(**it)))) {
      admit(**it);
      it = waiting_.erase(it);
      continue;
    }
    blocked_ranks += rank_blocked ? 0 : 1;
    rank_blocked = 1;
    ++it;
  }
  for (int r = 0; r < memory_.ranks(); ++r) memory_.set_blocked(r, blocked[static_cast<std::size_t>(r)] && batch_has_room(), sim_.now());
  publish_queue();
}

void DecodeInstance::publish_queue() {
  const auto waiting = static_cast<int>(waiting_.size() + rejoining_.size());
  if (waiting == published_waiting_ || !sim_.bus().has_subscribers<QueueChanged>()) return;
  published_waiting_ = waiting;
  sim_.bus().publish(QueueChanged{true, params_.index, waiting, sim_.now()});
}

void DecodeInstance::publish_memory(int rank) {
  sim_.bus().publish(DecodeMemoryChanged{params_.index, rank, memory_.used(rank), memory_.capacity(), sim_.now()});
}

void DecodeInstance::maybe_start_step() {
  if (stepping_) return;
  admit_waiting();
  if (batch_.empty()) return;
  stepping_ = true;
  step_started_ = sim_.now();
  kernels_.forget_before(step_started_);
  step_work_ = step_time();
  if (plan_quiet_steps()) return;
  sim_.schedule_in(step_work_, [this] { step_work_done(); });
}

bool DecodeInstance::plan_quiet_steps() {
  plan_.clear();
  if (!params_.merge_quiet_steps || verifying_ > 0 || sim_.bus().has_subscribers<DecodeStepDone>()) {
    return false;
  }
  Planned p{step_started_, step_work_, step_started_ + step_work_, 1};
  for (std::int64_t step = steps_ + 1;; ++step) {
    for (Time end = p.end; (end = p.start + p.work + kernels_.busy_within(p.start, p.end)) > p.end;) {
      p.end = end;
      ++p.events;
    }
    plan_.push_back(p);
    if (plan_.size() >= plan_limit_ || (!due_.empty() && due_.front().step <= step)) break;
    const Time work = plain_step_time(step);
    p = {p.end, work, p.end + work, 1};
  }
  if (plan_.size() == 1) {
    plan_.clear();
    return false;
  }
  plan_event_ = sim_.schedule_at(plan_.back().end, [this] { finish_plan(); });
  return true;
}

void DecodeInstance::finish_plan() {
  if (sim_.shares_time()) throw QuietStepTie();
  const Planned last = plan_.back();
  std::uint64_t folded = last.events - 1;
  for (std::size_t i = 0; i + 1 < plan_.size(); ++i) folded += plan_[i].events;
  sim_.credit_events(folded);
  if (plan_.size() == plan_limit_) plan_limit_ = std::min(2 * plan_limit_, kMaxPlanned);
  steps_ += static_cast<std::int64_t>(plan_.size()) - 1;
  plan_.clear();
  step_started_ = last.start;
  step_work_ = last.work;
  end_step(last.start);
}

void DecodeInstance::split_plan() {
  if (plan_.empty()) return;
  const Time now = sim_.now();
  std::size_t done = 0;
  std::uint64_t folded = 0;
  while (plan_[done].end < now) folded += plan_[done++].events;
  const Planned p = plan_[done];
  Time firing = p.start + p.work;
  while (firing < now) {
    ++folded;
    const Time next = p.start + p.work + kernels_.busy_within(p.start, firing);
    if (next <= firing) throw std::logic_error("decode: a planned step ended before its planned end");
    firing = next;
  }
  if (firing == now) throw QuietStepTie();
  sim_.cancel(plan_event_);
  sim_.credit_events(folded);
  plan_limit_ = std::max(done + 1, kMinPlanned);
  steps_ += static_cast<std::int64_t>(done);
  plan_.clear();
  step_started_ = p.start;
  step_work_ = p.work;
  sim_.schedule_at(firing, [this] { step_work_done(); });
}

Time DecodeInstance::step_time() {
  return verifying_ > 0 ? verifying_step_time() : plain_step_time(steps_);
}

Time DecodeInstance::plain_step_time(std::int64_t steps_done) const {
  const auto size = static_cast<std::int64_t>(batch_.size());
  if (plain_steps_.sequences() != size) plain_steps_ = timing_.decode_steps(static_cast<int>(size));
  return plain_steps_.time(length_offset_ + size * steps_done);
}

Time DecodeInstance::verifying_step_time() {
  using Kind = RequestState::StepKind;
  PassTotals verifying;
  int rows = 0;
  for (RequestState* r : batch_) {
    catch_up(*r, steps_);
    const int drafts = r->step_kind == Kind::verify ? r->drafts : 0;
    const int length = r->kv_length();
    if (drafts < 0 || drafts > length) throw std::logic_error("decode step: drafts beyond the KV length");
    verifying.add({drafts + 1, length - drafts});
    rows += drafts + 1;
  }
  return timing_.verify_step_time(PassTotals{}, verifying, rows);
}

void DecodeInstance::step_work_done() {
  const Time end = step_started_ + step_work_ + kernels_.busy_within(step_started_, sim_.now());
  if (end > sim_.now()) {
    sim_.schedule_at(end, [this] { step_work_done(); });
    return;
  }
  end_step(step_started_);
}

void DecodeInstance::end_step(Time started) {
  if (sim_.bus().has_subscribers<DecodeStepDone>()) {
    int verifying = 0;
    std::vector<std::uint64_t> ids;
    for (const RequestState* r : batch_) {
      verifying += r->step_kind == RequestState::StepKind::verify ? 1 : 0;
      ids.push_back(r->metrics.id);
    }
    sim_.bus().publish(DecodeStepDone{static_cast<int>(batch_.size()), verifying, started,
                                      sim_.now(), params_.index, std::move(ids)});
  }
  ++steps_;
  bool left = false;
  while (!due_.empty() && due_.front().step <= steps_) {
    std::pop_heap(due_.begin(), due_.end(), later);
    const Due d = due_.back();
    due_.pop_back();
    RequestState& r = *d.request;
    if (d.step != r.due_step || d.order != r.batch_order) continue;
    attend(r);
    left = left || r.finished || r.stalled;
  }
  if (left) std::erase_if(batch_, [](const RequestState* r) { return r->finished || r->stalled; });
  stepping_ = false;
  maybe_start_step();
}

void DecodeInstance::catch_up(RequestState& request, std::int64_t step) {
  const auto k = static_cast<int>(step - request.synced_step);
  if (k <= 0) return;
  request.synced_step = step;
  switch (request.step_kind) {
    case RequestState::StepKind::commit: request.metrics.committed_tokens += k; return;
    case RequestState::StepKind::draft:
      request.drafts += k;
      request.metrics.drafted_tokens += k;
      return;
    case RequestState::StepKind::verify: break;
  }
  throw std::logic_error("decode step: a verification was skipped");
}

void DecodeInstance::attend(RequestState& request) {
  length_offset_ -= request.kv_length() - request.synced_step;
  catch_up(request, steps_ - 1);
  if (request.step_kind == RequestState::StepKind::verify) --verifying_;
  advance(request);
  request.synced_step = steps_;
  if (request.finished || request.stalled) {
    request.due_step = -1;
    return;
  }
  length_offset_ += request.kv_length() - steps_;
  plan(request);
  due_.push_back({request.due_step, request.batch_order, &request});
  std::push_heap(due_.begin(), due_.end(), later);
}

void DecodeInstance::plan(RequestState& request) {
  using Kind = RequestState::StepKind;
  request.step_kind = request.verify_pending ? Kind::verify : request.speculating ? Kind::draft : Kind::commit;
  if (request.step_kind == Kind::verify) ++verifying_;
  request.due_step = next_due(request);
}

std::int64_t DecodeInstance::next_due(const RequestState& request) const {
  const auto& m = request.metrics;
  const bool unstamped = m.first_token_at == Time::zero() || m.decode_first_token_at == Time::zero();
  switch (request.step_kind) {
    case RequestState::StepKind::verify: return steps_ + 1;
    case RequestState::StepKind::draft:
      return steps_ + (unstamped ? 1 : std::max(1, params_.max_draft_tokens - request.drafts));
    case RequestState::StepKind::commit: break;
  }
  if (unstamped || m.first_commit_at == Time::zero() || m.decode_first_commit_at == Time::zero()) {
    return steps_ + 1;
  }
  return steps_ + std::max(1, m.output_tokens - m.committed_tokens);
}

void DecodeInstance::advance(RequestState& request) {
  auto& m = request.metrics;
  switch (request.step_kind) {
    case RequestState::StepKind::verify: verify(request); return;
    case RequestState::StepKind::commit: commit(request, 1); return;
    case RequestState::StepKind::draft: break;
  }
  ++request.drafts;
  ++m.drafted_tokens;
  if (m.first_token_at == Time::zero()) m.first_token_at = sim_.now();
  if (m.decode_first_token_at == Time::zero()) m.decode_first_token_at = sim_.now();
  if (!request.speculating && request.metrics.degraded) {
    commit_drafts(request);
  } else if (!request.speculating) {
    request.verify_pending = true;
  } else if (request.drafts >= params_.max_draft_tokens) {
    request.stalled = true;
  }
}

void DecodeInstance::verify(RequestState& request) {
  auto& m = request.metrics;
  const VerificationOutcome v = verify_drafts(sim_.rng("acceptance"), params_.acceptance, request.drafts);
  sim_.bus().publish(VerificationDone{m.id, request.drafts, v.accepted, sim_.now()});
  ++m.verifications;
  m.rollbacks += v.rollback ? 1 : 0;
  m.accepted_tokens += v.accepted;
  m.wasted_draft_tokens += v.wasted;
  request.drafts = 0;
  request.verify_pending = false;
  commit(request, v.committed);
}

void DecodeInstance::commit(RequestState& request, int tokens) {
  auto& m = request.metrics;
  m.committed_tokens = std::min(m.output_tokens, m.committed_tokens + tokens);
  if (m.first_token_at == Time::zero()) m.first_token_at = sim_.now();
  if (m.first_commit_at == Time::zero()) m.first_commit_at = sim_.now();
  if (m.decode_first_token_at == Time::zero()) m.decode_first_token_at = sim_.now();
  if (m.decode_first_commit_at == Time::zero()) m.decode_first_commit_at = sim_.now();
  if (m.committed_tokens >= m.output_tokens) finish(request);
}

void DecodeInstance::finish(RequestState& request) {
  auto& m = request.metrics;
  request.finished = true;
  m.last_token_at = sim_.now();
  release_for(request);
  --routed_;
  sim_.bus().publish(RequestDone{m.id, sim_.now(), m.first_token_at, m.first_commit_at});
  if (on_finish_) on_finish_(request);
  admission_.pump();
}

}  // namespace lynxsim::serving
