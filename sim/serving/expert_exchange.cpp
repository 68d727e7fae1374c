#include "sim/serving/expert_exchange.hpp"

#include <algorithm>
#include <stdexcept>

namespace lynxsim::serving {

ExpertExchange::ExpertExchange(Simulator& sim, net::Network& network, std::vector<net::HostId> hosts,
                               int node_gpus)
    : sim_(sim), network_(network), hosts_(std::move(hosts)), node_gpus_(std::max(node_gpus, 1)) {}

bool ExpertExchange::spans_hosts(const std::vector<net::HostId>& hosts, int expert_parallel,
                                 int node_gpus) {
  if (expert_parallel <= node_gpus || static_cast<int>(hosts.size()) != expert_parallel) return false;
  std::vector<net::HostId> sorted = hosts;
  std::sort(sorted.begin(), sorted.end());
  return std::adjacent_find(sorted.begin(), sorted.end()) == sorted.end();
}

void ExpertExchange::run(Bytes pair_bytes, Time in_node, std::int64_t order_key,
                         std::function<void()> done) {
  if (parts_left_ > 0) throw std::logic_error("an expert exchange is already running");
  done_ = std::move(done);
  parts_left_ = 1;
  const auto ranks = static_cast<int>(hosts_.size());
  for (int src = 0; src < ranks && pair_bytes.value > 0; ++src) {
    for (int dst = 0; dst < ranks; ++dst) {
      if (src / node_gpus_ == dst / node_gpus_) continue;
      net::FlowSpec spec;
      spec.src = hosts_[static_cast<std::size_t>(src)];
      spec.dst = hosts_[static_cast<std::size_t>(dst)];
      spec.size = pair_bytes;
      spec.order_key = order_key;
      ++parts_left_;
      ++flows_started_;
      network_.start_flow_with_setup(std::move(spec), [this](const auto&) { part_done(); }, Time::zero());
    }
  }
  sim_.schedule_in(in_node, [this] { part_done(); });
}

void ExpertExchange::part_done() {
  if (--parts_left_ > 0) return;
  auto done = std::move(done_);
  done_ = nullptr;
  done();
}

}  // namespace lynxsim::serving
