#include <doctest/doctest.h>

#include "net_test_util.hpp"
#include "sim/net/reachability.hpp"

using namespace lynxsim;
using namespace lynxsim::net;
using namespace lynxsim::net::test;

namespace {

// Two islands, {p0, d0} on s0-s1 and {d1, nas} on s2, and p1 linked straight to d1; h9 has no link.
Topology islands() {
  GraphTopology g;
  g.hosts = {"p0", "d0", "d1", "nas", "p1", "h9"};
  g.switches = {"s0", "s1", "s2"};
  const LinkSpec l = link_of(100, 1);
  g.links = {{"p0", "s0", l, ""}, {"s0", "s1", l, ""}, {"d0", "s1", l, ""},
             {"d1", "s2", l, ""}, {"nas", "s2", l, ""}, {"p1", "d1", l, ""}};
  return build_topology(g);
}

}  // namespace

TEST_CASE("hosts reach each other through one switch component or a direct link, never through a host") {
  const Topology t = islands();
  const Reachability r(t);
  const auto h = [&t](const char* name) { return t.host_by_name(name); };
  CHECK(r.reaches(h("p0"), h("d0")));
  CHECK(r.reaches(h("d1"), h("nas")));
  CHECK(r.reaches(h("p1"), h("d1")));
  CHECK(r.reaches(h("h9"), h("h9")));
  CHECK_FALSE(r.reaches(h("p0"), h("d1")));
  CHECK_FALSE(r.reaches(h("p1"), h("nas")));
  CHECK_FALSE(r.reaches(h("h9"), h("p0")));
}

TEST_CASE("first_unreachable finds a missing pair of two host sets") {
  const Topology t = islands();
  const Reachability r(t);
  const auto h = [&t](const char* name) { return t.host_by_name(name); };
  CHECK_FALSE(r.first_unreachable(std::vector{h("p0")}, std::vector{h("d0"), h("p0")}));
  const auto missing = r.first_unreachable(std::vector{h("p0")}, std::vector{h("d0"), h("d1")});
  REQUIRE(missing);
  CHECK(*missing == std::pair{h("p0"), h("d1")});
  CHECK(r.first_unreachable(std::vector{h("p1")}, std::vector{h("d1"), h("nas")}));
  CHECK(r.first_unreachable(std::vector{h("h9")}, std::vector{h("h9"), h("d0")}));
  CHECK_FALSE(r.first_unreachable(std::vector{h("h9")}, std::vector{h("h9")}));
}

TEST_CASE("every host of a generated fabric reaches every other") {
  NetworkSpec spec;
  spec.topology = FatTreeTopology{8, link_of(100, 1), std::nullopt};
  const Topology t = build_topology(spec.topology);
  std::vector<HostId> all;
  for (HostId i = 0; i < t.num_hosts(); ++i) all.push_back(i);
  CHECK_FALSE(Reachability(t).first_unreachable(all, all));
}
