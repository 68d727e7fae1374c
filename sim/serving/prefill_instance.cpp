#include "sim/serving/prefill_instance.hpp"

#include <algorithm>
#include <cmath>

#include "sim/serving/serving_events.hpp"

namespace lynxsim::serving {

PrefillInstance::PrefillInstance(Simulator& sim, const TimingModel& timing, KvSender& transfer,
                                 PrefillParams params, Callback on_done)
    : sim_(sim), timing_(timing), transfer_(transfer), params_(params),
      on_done_(std::move(on_done)) {}

void PrefillInstance::submit(RequestState& request) {
  const bool spf = params_.schedule.order == PrefillOrder::shortest_prompt_first;
  const std::int64_t key = spf ? request.tokens_to_prefill() : 0;
  queue_.emplace(QueueKey{key, sequence_++}, &request);
  outstanding_tokens_ += request.tokens_to_prefill();
  publish_queue();
  if (!busy_) start_next();
}

void PrefillInstance::add_slice(std::map<QueueKey, RequestState*>::iterator it, int tokens) {
  RequestState& r = *it->second;
  if (!r.prefill_started) {
    r.prefill_started = true;
    r.metrics.prefill_start_at = sim_.now();
    transfer_.begin(r);
  }
  const bool first = r.prefilled_tokens == r.metrics.cached_tokens;
  const bool last = tokens == r.tokens_to_prefill();
  const bool prefix_here = first && !r.prefix_from_store;
  pass_.push_back({&r, tokens, r.prefilled_tokens,
                   tokens + (prefix_here ? r.metrics.cached_tokens : 0), last});
  if (last) queue_.erase(it);
}

void PrefillInstance::form_pass() {
  const int budget = params_.schedule.max_batch_tokens;
  int used = 0;
  while (!queue_.empty()) {
    const int need = queue_.begin()->second->tokens_to_prefill();
    const int left = budget - used;
    int tokens = need;
    if (budget > 0 && need > left) {
      if (params_.schedule.chunked && left > 0) tokens = left;
      else if (!pass_.empty()) break;
    }
    add_slice(queue_.begin(), tokens);
    used += tokens;
    if (budget == 0 || used >= budget || tokens < need) break;
  }
}

void PrefillInstance::start_next() {
  pass_.clear();
  if (queue_.empty()) {
    busy_ = false;
    return;
  }
  busy_ = true;
  pass_started_ = sim_.now();
  form_pass();
  publish_queue();
  std::vector<SequenceChunk> chunks;
  for (const Slice& s : pass_) chunks.push_back({s.new_tokens, s.cached_tokens});
  layer_time_ = timing_.layer_breakdown(chunks).total_time();
  encode_time_ = Time::zero();
  if (params_.exchange != nullptr) traffic_ = timing_.expert_traffic(chunks);
  if (params_.streaming == StreamingMode::layerwise) {
    for (const Slice& s : pass_) encode_time_ += transfer_.encode_time(*s.request, 1, s.piece_tokens);
  }
  run_layers(0);
}

void PrefillInstance::run_layers(int first_layer) {
  const int layers = timing_.model().num_layers;
  if (first_layer == layers) {
    finish_pass();
    return;
  }
  const bool grouped = params_.streaming == StreamingMode::layerwise || params_.exchange != nullptr;
  const int group = grouped ? std::max(1, params_.layers_per_flow) : layers;
  const int count = std::min(group, layers - first_layer);
  const Time started = sim_.now();
  sim_.schedule_in((layer_time_ + encode_time_) * count, [this, first_layer, count, started] {
    if (params_.exchange == nullptr) {
      layers_done(first_layer, count, started);
      return;
    }
    const Bytes pair{std::llround(traffic_.pair_bytes * count)};
    const auto key = static_cast<std::int64_t>(pass_.front().request->metrics.id);
    params_.exchange->run(pair, Time::from_seconds(traffic_.in_node_s * count), key,
                          [this, first_layer, count, started] { layers_done(first_layer, count, started); });
  });
}

void PrefillInstance::layers_done(int first_layer, int count, Time started) {
  publish_layers(first_layer, count, started);
  if (params_.streaming == StreamingMode::layerwise) send_pieces(first_layer, count);
  run_layers(first_layer + count);
}

void PrefillInstance::publish_layers(int first_layer, int count, Time started) const {
  if (!sim_.bus().has_subscribers<PrefillLayerDone>()) return;
  const Time exchange = sim_.now() - started - (layer_time_ + encode_time_) * count;
  const Time period = layer_time_ + encode_time_ + Time::from_ps(exchange.ps() / count);
  for (int i = 0; i < count; ++i) {
    const Time at = started + period * i;
    for (const Slice& s : pass_) {
      sim_.bus().publish(PrefillLayerDone{s.request->metrics.id, first_layer + i, at, at + layer_time_});
    }
  }
}

void PrefillInstance::publish_queue() const {
  if (!sim_.bus().has_subscribers<QueueChanged>()) return;
  sim_.bus().publish(QueueChanged{false, params_.index, static_cast<int>(queue_.size()), sim_.now()});
}

void PrefillInstance::publish_pass() const {
  if (!sim_.bus().has_subscribers<PrefillPassDone>()) return;
  PrefillPassDone done{params_.index, {}, 0, pass_started_, sim_.now()};
  for (const Slice& s : pass_) {
    done.requests.push_back(s.request->metrics.id);
    done.tokens += s.new_tokens;
  }
  sim_.bus().publish(std::move(done));
}

void PrefillInstance::send_pieces(int first_layer, int count) {
  const bool final_group = first_layer + count == timing_.model().num_layers;
  for (const Slice& s : pass_) transfer_.send(*s.request, count, s.piece_tokens, s.last && final_group);
}

void PrefillInstance::finish_pass() {
  std::vector<SequenceChunk> chunks;
  int finishing = 0;
  for (const Slice& s : pass_) {
    chunks.push_back({s.new_tokens, s.cached_tokens});
    finishing += s.last ? 1 : 0;
  }
  const Time tail = timing_.pass(chunks, finishing).time - layer_time_ * timing_.model().num_layers;
  sim_.schedule_in(max(tail, Time::zero()), [this] { after_pass(); });
}

void PrefillInstance::after_pass() {
  publish_pass();
  Time encode = Time::zero();
  const int layers = timing_.model().num_layers;
  for (const Slice& s : pass_) {
    s.request->prefilled_tokens += s.new_tokens;
    outstanding_tokens_ -= s.new_tokens;
    if (!s.last) continue;
    s.request->metrics.prefill_done_at = sim_.now();
    on_done_(*s.request);
    if (params_.streaming == StreamingMode::after_prefill) {
      encode += transfer_.encode_time(*s.request, layers, s.request->tokens_from_prefill());
    }
  }
  if (params_.streaming == StreamingMode::layerwise) {
    start_next();
    return;
  }
  std::vector<RequestState*> done;
  for (const Slice& s : pass_) {
    if (s.last) done.push_back(s.request);
  }
  sim_.schedule_in(encode, [this, done, layers] {
    for (RequestState* r : done) transfer_.send(*r, layers, r->tokens_from_prefill(), true);
    start_next();
  });
}

}  // namespace lynxsim::serving
