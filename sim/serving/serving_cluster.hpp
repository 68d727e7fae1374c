#pragma once
// A serving cluster for one method: N prefill and M decode instances on one network, a router,
// the KV transfer between them and an optional prefix cache on a KV store host.
//
// A request's path: it arrives, the router picks its prefill and decode instance (the decode
// instance notes the expected reservation), the prefix cache (if enabled) finds its cached prefix
// and the store sends it to the prefill instance, the prompt joins the prefill queue, its KV streams
// to the decode instance, it decodes there and finishes. When its prefill finishes, its blocks
// enter the cache. With the first token taken from prefill, that token is committed at
// prefill_done_at (a one-token request then finishes there). With context loading
// (context_loader.hpp) the cached prefix comes from the store instead, to the GPU the scenario names;
// an aggregated request skips the prefill instances and is served by its decode instance alone.

#include <deque>
#include <memory>
#include <optional>
#include <span>
#include <vector>

#include "sim/compute/timing_model.hpp"
#include "sim/core/simulator.hpp"
#include "sim/net/network.hpp"
#include "sim/serving/client.hpp"
#include "sim/serving/context_loader.hpp"
#include "sim/serving/decode_instance.hpp"
#include "sim/serving/expert_exchange.hpp"
#include "sim/serving/kv_sender.hpp"
#include "sim/serving/link_usage.hpp"
#include "sim/serving/prefill_instance.hpp"
#include "sim/serving/prefix_cache.hpp"
#include "sim/serving/request_router.hpp"
#include "sim/serving/serving_config.hpp"

namespace lynxsim::serving {

class ServingCluster {
public:
  // merge_quiet_steps: decode instances fold quiet steps into one event (decode_instance.hpp).
  ServingCluster(Simulator& sim, const ServingConfig& config, const quant::MethodSpec& method,
                 double acceptance, const MethodQuality& quality, bool merge_quiet_steps = true);

  // Schedules the arrival of every request (they must outlive the run); with a client
  // (config.client) the client sends them, in order of arrival_at, as its slots allow.
  void schedule(std::span<RequestState> requests);
  // Cache, memory and link figures after the run (throughput and goodput are filled by the caller).
  ClusterStats stats(Time end) const;
  // Flows started and not yet arrived (after a run: flows that could not finish).
  std::size_t flows_in_flight() const { return network_->active_flows(); }

private:
  void build_instances(const quant::MethodSpec& method, double acceptance, const MethodQuality& quality);
  void add_prefill_timing(const InstanceSpec& spec, std::size_t index, KvTransferParams& params);
  // Arrivals enter the event queue one at a time, in time order, with the sequence numbers they
  // would have had if all were scheduled up front (event_queue.hpp), so the queue stays small.
  struct Arrival {
    Time at;
    RequestState* request = nullptr;
    std::uint64_t sequence = 0;
  };
  void schedule_next_arrival();
  // A request the client sends now enters after the engine's admission delay.
  void send(RequestState& request);
  void arrive(RequestState& request);
  void arrive_with_cache(RequestState& request, PrefillInstance& prefill);
  DecodeInstance& decode_of(const RequestState& request) {
    return *decode_[static_cast<std::size_t>(request.metrics.decode_instance)];
  }
  void prefill_done(RequestState& request);

  Simulator& sim_;
  const ServingConfig& config_;
  std::unique_ptr<net::Network> network_;
  std::vector<std::unique_ptr<TimingModel>> prefill_timing_;
  std::vector<std::unique_ptr<TimingModel>> decode_timing_;
  std::unique_ptr<KvSender> transfer_;
  std::vector<std::unique_ptr<ExpertExchange>> exchanges_;  // per prefill instance; null: closed form
  std::vector<std::unique_ptr<PrefillInstance>> prefill_;
  std::vector<std::unique_ptr<DecodeInstance>> decode_;
  RequestRouter router_;
  std::optional<PrefixCache> cache_;
  net::HostId store_host_ = 0;
  std::optional<ContextLoader> loader_;
  std::optional<Client> client_;  // config.client: requests are sent by it, not at arrival_at
  std::vector<Arrival> arrivals_;
  std::size_t next_arrival_ = 0;
  std::optional<LinkUsage> links_;
  bool merge_quiet_steps_ = true;
};

}  // namespace lynxsim::serving
