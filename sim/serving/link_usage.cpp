#include "sim/serving/link_usage.hpp"

#include <algorithm>

#include "sim/net/network.hpp"

namespace lynxsim::serving {

LinkUsage::LinkUsage(Simulator& sim) {
  sim.bus().subscribe<net::LinkLoadChanged>([this](const net::LinkLoadChanged& e) {
    if (links_.size() <= e.link) links_.resize(static_cast<std::size_t>(e.link) + 1);
    Track& t = links_[e.link];
    const double dt = (e.at - t.last_at).seconds();
    if (!t.seen) t.capacity = e.capacity.value;
    t.seen = true;
    if (dt > 0.0 && t.capacity > 0.0) t.peak = std::max(t.peak, t.used / t.capacity);
    series_.add(e.link, {t.last_at, t.used, t.capacity}, e.at);
    t.used_integral += t.used * dt;
    t.capacity_integral += t.capacity * dt;
    t.last_at = e.at;
    t.used = e.used.value;
    t.capacity = e.capacity.value;
    if (t.used > 0.0) series_.start(e.link, e.at, t.capacity);
  });
}

std::vector<LinkUtilisation> LinkUsage::finish(Time end) const {
  std::vector<LinkUtilisation> out;
  for (std::size_t link = 0; link < links_.size(); ++link) {
    const Track& t = links_[link];
    if (!t.seen) continue;
    const double dt = (end - t.last_at).seconds();
    const double used = t.used_integral + t.used * dt;
    const double capacity = t.capacity_integral + t.capacity * dt;
    if (used <= 0.0) continue;
    const double last = dt > 0.0 && t.capacity > 0.0 ? t.used / t.capacity : 0.0;
    out.push_back({static_cast<std::uint32_t>(link), capacity > 0.0 ? used / capacity : 0.0,
                   std::max(t.peak, last), {},
                   series_.utilisation(static_cast<std::uint32_t>(link), {t.last_at, t.used, t.capacity}, end)});
  }
  return out;
}

}  // namespace lynxsim::serving
