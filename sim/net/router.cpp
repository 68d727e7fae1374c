#include "sim/net/router.hpp"

// Boost.Graph's edge iterators trip a false -Wmaybe-uninitialized in g++ 12 when inlined here.
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"

#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/breadth_first_search.hpp>
#include <boost/graph/filtered_graph.hpp>
#include <fmt/format.h>
#include <limits>
#include <stdexcept>

#include "sim/core/rng.hpp"

namespace lynxsim::net {
namespace {

using BoostGraph = boost::adjacency_list<boost::vecS, boost::vecS, boost::directedS>;
constexpr std::uint32_t kUnreached = std::numeric_limits<std::uint32_t>::max();

struct NoTransitThroughHosts {
  const BoostGraph* graph = nullptr;
  const Topology* topology = nullptr;
  NodeId root = 0;
  bool operator()(BoostGraph::edge_descriptor e) const {
    const auto from = static_cast<NodeId>(boost::source(e, *graph));
    return from == root || !topology->node(from).is_host;
  }
};

struct DistanceRecorder : boost::default_bfs_visitor {
  std::vector<std::uint32_t>* dist = nullptr;
  template <class Edge, class G>
  void tree_edge(Edge e, const G& g) const {
    (*dist)[boost::target(e, g)] = (*dist)[boost::source(e, g)] + 1;
  }
};

std::vector<std::uint32_t> bfs_distances(const Topology& t, const BoostGraph& g, NodeId root) {
  const NoTransitThroughHosts filter{&g, &t, root};
  const boost::filtered_graph<BoostGraph, NoTransitThroughHosts> fg(g, filter);
  std::vector<std::uint32_t> dist(t.num_nodes(), kUnreached);
  dist[root] = 0;
  DistanceRecorder rec;
  rec.dist = &dist;
  boost::breadth_first_search(fg, boost::vertex(root, g), boost::visitor(rec));
  return dist;
}

}  // namespace

struct Router::Graph {
  BoostGraph g;
};

Router::Router(const Topology& topology)
    : topology_(topology),
      graph_(std::make_unique<Graph>(Graph{BoostGraph(topology.num_nodes())})),
      distances_(topology.num_nodes()) {
  for (const auto& l : topology.links()) boost::add_edge(l.to, l.from, graph_->g);
}

Router::~Router() = default;

const std::vector<std::uint32_t>& Router::distances_to(NodeId dst) const {
  auto& d = distances_[dst];
  if (d.empty()) d = bfs_distances(topology_, graph_->g, dst);
  return d;
}

std::uint32_t Router::distance(HostId src, HostId dst) const {
  const auto& d = distances_to(topology_.host_node(dst));
  const std::uint32_t hops = d[topology_.host_node(src)];
  if (hops == kUnreached) {
    throw std::invalid_argument(fmt::format("no route from host '{}' to host '{}'",
                                            topology_.host_name(src), topology_.host_name(dst)));
  }
  return hops;
}

std::vector<LinkId> Router::route(HostId src, HostId dst, std::uint64_t flow_key) const {
  const std::uint32_t hops = distance(src, dst);
  const auto& d = distances_to(topology_.host_node(dst));
  std::vector<LinkId> path;
  path.reserve(hops);
  const NodeId target = topology_.host_node(dst);
  NodeId at = topology_.host_node(src);
  const auto usable = [&](LinkId l) {
    const NodeId to = topology_.link(l).to;
    return d[to] + 1 == d[at] && (to == target || !topology_.node(to).is_host);
  };
  while (at != target) {
    std::uint64_t n = 0;
    for (const LinkId l : topology_.out_links(at)) n += usable(l) ? 1 : 0;
    std::uint64_t state = flow_key ^ (static_cast<std::uint64_t>(at) * 0x9E3779B97F4A7C15ULL);
    std::uint64_t pick = splitmix64(state) % n;
    for (const LinkId l : topology_.out_links(at)) {
      if (!usable(l)) continue;
      if (pick-- == 0) {
        path.push_back(l);
        break;
      }
    }
    at = topology_.link(path.back()).to;
  }
  return path;
}

}  // namespace lynxsim::net
