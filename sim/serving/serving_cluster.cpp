#include "sim/serving/serving_cluster.hpp"

#include <algorithm>
#include <stdexcept>

#include "sim/serving/kv_sender_factory.hpp"
#include "sim/serving/serving_events.hpp"

namespace lynxsim::serving {
namespace {

std::vector<net::HostId> rank_hosts(const net::Network& network, net::PoolId pool,
                                    std::size_t instance, int tp) {
  std::vector<net::HostId> hosts;
  for (int r = 0; r < tp; ++r) {
    hosts.push_back(network.place(pool, static_cast<std::uint32_t>(instance),
                                  static_cast<std::uint32_t>(r), static_cast<std::uint32_t>(tp)));
  }
  return hosts;
}

// The prompt tokens the engine tokenizes: none when clients send token ids.
int text_tokens(const ServingConfig& config, const RequestState& r) {
  return config.prompt_token_ids ? 0 : r.metrics.context_tokens;
}

Time admission_delay(const ServingConfig& config, const RequestState& r) {
  return config.engine ? config.engine->request_admission(text_tokens(config, r)) : Time::zero();
}

template <class Action>
void after_handover(Simulator& sim, const ServingConfig& config, const RequestState& r, Action action) {
  const Time delay = config.engine ? config.engine->decode_handover(text_tokens(config, r)) : Time::zero();
  if (delay == Time::zero()) {
    action();
  } else {
    sim.schedule_in(delay, std::move(action));
  }
}

void commit_prefill_token(RequestState& r) {
  auto& m = r.metrics;
  m.first_token_at = m.prefill_done_at;
  m.first_commit_at = m.prefill_done_at;
  m.committed_tokens = 1;
  if (m.output_tokens <= 1) {
    m.last_token_at = m.prefill_done_at;
    m.decode_first_token_at = m.prefill_done_at;
    m.decode_first_commit_at = m.prefill_done_at;
    r.finished = true;
  }
}

}  // namespace

std::vector<InstanceSpec> expand_instances(const InstanceSpec& first,
                                           const std::vector<InstanceSpec>& extra) {
  std::vector<InstanceSpec> out;
  const auto add = [&out](const InstanceSpec& group) {
    if (group.count < 1) throw std::invalid_argument("an instance group needs count >= 1");
    for (int i = 0; i < group.count; ++i) out.push_back(group);
  };
  add(first);
  for (const InstanceSpec& group : extra) add(group);
  return out;
}

ServingCluster::ServingCluster(Simulator& sim, const ServingConfig& config,
                               const quant::MethodSpec& method, double acceptance,
                               const MethodQuality& quality, bool merge_quiet_steps)
    : sim_(sim), config_(config), network_(config.make_network(sim)), router_(config.router),
      merge_quiet_steps_(merge_quiet_steps) {
  if (config.client) {
    client_.emplace(sim, *config.client, [this](RequestState& r) { send(r); });
  }
  if (config.layers_per_flow < 1) throw std::invalid_argument("layers_per_flow must be >= 1");
  if (config.prefill_schedule.chunked && config.prefill_schedule.max_batch_tokens < 1) {
    throw std::invalid_argument("chunked prefill needs max_batch_tokens >= 1");
  }
  build_instances(method, acceptance, quality);
  if (config.prefix_cache.enabled) {
    if (config.prefix_cache.block_tokens < 1) throw std::invalid_argument("cache blocks need tokens");
    store_host_ = network_->host_by_name(config.prefix_cache.store_host);
    cache_.emplace(config.prefix_cache.capacity, transfer_->block_bytes(config.prefix_cache.block_tokens));
    if (config.prefix_cache.target == LoadTarget::aggregated ||
        (config.prefix_cache.target == LoadTarget::decode && method.family == quant::MethodFamily::cachegen)) {
      throw std::invalid_argument("a prefix cache loads to prefill, or to decode for a planed method");
    }
  }
  if (config.context_loading.enabled) {
    if (config.prefix_cache.enabled) {
      throw std::invalid_argument("context loading and a prefix cache cannot be combined");
    }
    if (config.context_loading.target == LoadTarget::aggregated &&
        config.first_token_from == FirstTokenSource::prefill) {
      throw std::invalid_argument("an aggregated instance makes its first token in a decode step");
    }
    if (method.family == quant::MethodFamily::cachegen && config.context_loading.target == LoadTarget::decode) {
      throw std::invalid_argument("cachegen loads context to the prefill or an aggregated instance only");
    }
    std::vector<const TimingModel*> timing;
    for (const auto& t : decode_timing_) timing.push_back(t.get());
    loader_.emplace(sim, config.context_loading, network_->host_by_name(config.context_loading.store_host),
                    *transfer_, std::move(timing), method.speculative(),
                    [this](RequestState& r) { decode_of(r).on_decode_ready(r); },
                    [this](RequestState& r) { decode_of(r).on_full_kv(r); });
  }
  if (config.measure_links) links_.emplace(sim);
}

void ServingCluster::add_prefill_timing(const InstanceSpec& spec, std::size_t index, KvTransferParams& params) {
  std::vector<net::HostId> hosts = rank_hosts(*network_, kPrefillPool, index, spec.tensor_parallel);
  ExpertParallelLayout layout = spec.parallel;
  layout.scale_out_flows = spec.all_to_all_flows && config_.model.moe.has_value() &&
                           ExpertExchange::spans_hosts(hosts, layout.expert_parallel, layout.node_gpus);
  exchanges_.push_back(layout.scale_out_flows
                           ? std::make_unique<ExpertExchange>(sim_, *network_, hosts, layout.node_gpus)
                           : nullptr);
  prefill_timing_.push_back(
      std::make_unique<TimingModel>(config_.model, spec.gpu, spec.tensor_parallel, config_.engine));
  prefill_timing_.back()->set_parallel_layout(layout);
  params.prefill_timing.push_back(prefill_timing_.back().get());
  params.prefill_attention_dp.push_back(layout.attention_dp);
  params.prefill_hosts.push_back(std::move(hosts));
}

void ServingCluster::build_instances(const quant::MethodSpec& method, double acceptance,
                                     const MethodQuality& quality) {
  KvTransferParams tp;
  tp.method = &method;
  tp.geometry = kv_geometry_of(config_.model);
  tp.measured_size_ratio = quality.measured_size_ratio;
  tp.cachegen_level_ratios = quality.cachegen_level_ratios;
  const auto prefill_specs = expand_instances(config_.prefill, config_.extra_prefill);
  const auto decode_specs = expand_instances(config_.decode, config_.extra_decode);
  for (std::size_t i = 0; i < prefill_specs.size(); ++i) add_prefill_timing(prefill_specs[i], i, tp);
  for (std::size_t i = 0; i < decode_specs.size(); ++i) {
    const InstanceSpec& s = decode_specs[i];
    decode_timing_.push_back(
        std::make_unique<TimingModel>(config_.model, s.gpu, s.tensor_parallel, config_.engine));
    decode_timing_.back()->set_parallel_layout(s.parallel);
    tp.decode_timing.push_back(decode_timing_.back().get());
    tp.decode_attention_dp.push_back(s.parallel.attention_dp);
    tp.decode_hosts.push_back(rank_hosts(*network_, kDecodePool, i, s.tensor_parallel));
  }
  transfer_ = make_kv_sender(
      sim_, *network_, std::move(tp),
      [this](RequestState& r) {
        if (r.aggregated) {
          loader_->kv_ready(r);
          return;
        }
        after_handover(sim_, config_, r, [this, &r, full_at_ready = r.full_kv] {
          const bool full_now = r.full_kv;
          r.full_kv = full_at_ready;  // the whole KV timeline shifts by the handover
          decode_of(r).on_decode_ready(r);
          r.full_kv = full_now;
        });
      },
      [this](RequestState& r) {
        decode_of(r).transfer_done(r);
        if (r.aggregated) {
          loader_->kv_full(r);
          return;
        }
        after_handover(sim_, config_, r, [this, &r] { decode_of(r).on_full_kv(r); });
      });
  for (std::size_t i = 0; i < decode_specs.size(); ++i) {
    const DecodeParams dp{static_cast<int>(i), config_.max_decode_batch,
                          config_.speculation.max_draft_tokens, acceptance, method.speculative(),
                          config_.decode_memory.usable_fraction, merge_quiet_steps_,
                          config_.kv_admission};
    DecodeInstance::Callback on_finish;
    if (client_) on_finish = [this](RequestState&) { client_->finished(); };
    decode_.push_back(std::make_unique<DecodeInstance>(sim_, *decode_timing_[i],
                                                       transfer_->decode_stream(i), dp, on_finish));
    decode_.back()->set_on_admitted([this](RequestState& r) { transfer_->admitted(r); });
  }
  transfer_->set_admission(config_.kv_admission.initiator,
                           [this](RequestState& r) { decode_of(r).ask_transfer(r); });
  transfer_->set_transfer_timeout(
      config_.kv_transfer, {[this](RequestState& r) { decode_of(r).fail(r); },
                            [this](RequestState& r) {
                              decode_of(r).transfer_done(r);
                              decode_of(r).commit_on_anchor(r);
                            }});
  for (std::size_t i = 0; i < prefill_specs.size(); ++i) {
    const PrefillParams pp{static_cast<int>(i), config_.streaming, config_.prefill_schedule,
                           config_.layers_per_flow, exchanges_[i].get()};
    prefill_.push_back(std::make_unique<PrefillInstance>(
        sim_, *prefill_timing_[i], *transfer_, pp, [this](RequestState& r) { prefill_done(r); }));
  }
}

void ServingCluster::schedule(std::span<RequestState> requests) {
  if (client_) {
    std::vector<RequestState*> order;
    order.reserve(requests.size());
    for (RequestState& r : requests) order.push_back(&r);
    const auto earlier = [](const RequestState* a, const RequestState* b) {
      return a->metrics.arrived_at < b->metrics.arrived_at;
    };
    if (!std::is_sorted(order.begin(), order.end(), earlier)) {
      std::stable_sort(order.begin(), order.end(), earlier);
    }
    client_->start(std::move(order));
    return;
  }
  arrivals_.clear();
  for (RequestState& r : requests) {
    arrivals_.push_back({r.metrics.arrived_at + admission_delay(config_, r), &r});
  }
  const std::uint64_t first = sim_.reserve_sequences(arrivals_.size());
  for (std::size_t i = 0; i < arrivals_.size(); ++i) arrivals_[i].sequence = first + i;
  std::stable_sort(arrivals_.begin(), arrivals_.end(),
                   [](const Arrival& a, const Arrival& b) { return a.at < b.at; });
  next_arrival_ = 0;
  schedule_next_arrival();
}

void ServingCluster::schedule_next_arrival() {
  if (next_arrival_ >= arrivals_.size()) return;
  const Arrival& a = arrivals_[next_arrival_++];
  sim_.schedule_reserved(a.at, a.sequence, [this, r = a.request] {
    schedule_next_arrival();
    arrive(*r);
  });
}

void ServingCluster::send(RequestState& request) {
  const Time delay = admission_delay(config_, request);
  if (delay == Time::zero()) {
    arrive(request);
  } else {
    sim_.schedule_in(delay, [this, &request] { arrive(request); });
  }
}

void ServingCluster::arrive(RequestState& request) {
  auto& m = request.metrics;
  const bool aggregated = loader_ && loader_->target() == LoadTarget::aggregated;
  if (!aggregated) m.prefill_instance = router_.pick_prefill(prefill_);
  m.decode_instance = router_.pick_decode(decode_, request);
  sim_.bus().publish(RequestRouted{m.id, aggregated ? -1 : m.prefill_instance, m.decode_instance,
                                   sim_.now()});
  decode_of(request).on_routed(request);
  if (aggregated) {
    loader_->start(request, nullptr);
    return;
  }
  PrefillInstance& prefill = *prefill_[static_cast<std::size_t>(m.prefill_instance)];
  if (loader_) {
    loader_->start(request, &prefill);
    return;
  }
  if (!cache_ || request.hash_ids == nullptr) {
    prefill.submit(request);
    return;
  }
  arrive_with_cache(request, prefill);
}

void ServingCluster::arrive_with_cache(RequestState& request, PrefillInstance& prefill) {
  auto& m = request.metrics;
  const int hits = cache_->lookup(*request.hash_ids);
  const auto block = static_cast<std::int64_t>(config_.prefix_cache.block_tokens);
  m.cached_tokens = static_cast<int>(std::min<std::int64_t>(hits * block, m.context_tokens - 1));
  if (m.cached_tokens <= 0) {
    m.cached_tokens = 0;
    prefill.submit(request);
    return;
  }
  load_prefix_then_prefill(sim_, *transfer_, request, store_host_, config_.prefix_cache.target,
                           prefill);
}

void ServingCluster::prefill_done(RequestState& request) {
  if (request.metrics.failed()) return;
  if (cache_ && request.hash_ids != nullptr) cache_->insert(*request.hash_ids);
  if (config_.first_token_from == FirstTokenSource::prefill) {
    commit_prefill_token(request);
    if (request.finished && client_) client_->finished();
  }
}

ClusterStats ServingCluster::stats(Time end) const {
  ClusterStats s;
  s.num_prefill = static_cast<int>(prefill_.size());
  s.num_decode = static_cast<int>(decode_.size());
  if (cache_) {
    const PrefixCacheCounters& c = cache_->counters();
    s.cache_lookup_blocks = c.lookup_blocks;
    s.cache_hit_blocks = c.hit_blocks;
    s.cache_evicted_blocks = c.evicted_blocks;
    s.cache_block_hit_rate = c.lookup_blocks > 0 ? static_cast<double>(c.hit_blocks) /
                                                       static_cast<double>(c.lookup_blocks)
                                                 : 0.0;
  }
  for (const auto& d : decode_) {
    s.peak_decode_memory_fraction = std::max(
        s.peak_decode_memory_fraction,
        static_cast<double>(d->peak_bytes()) / static_cast<double>(d->capacity_bytes()));
  }
  if (links_) {
    s.links = links_->finish(end);
    s.link_series_bin_s = links_->series_bin_width(end).seconds();
  }
  for (LinkUtilisation& l : s.links) l.name = network_->link_name(l.link);
  for (const LinkUtilisation& l : s.links) s.max_link_utilisation = std::max(s.max_link_utilisation, l.mean);
  return s;
}

}  // namespace lynxsim::serving
