#pragma once
// Link utilisation over a run, from the network's LinkLoadChanged events.
//
// For each directed link that carried traffic, with used(t) its summed flow rate and cap(t) its
// goodput capacity (piecewise constant between events; before a link's first event it was idle at
// the capacity that event reports):
//   mean utilisation = integral_0^T used dt / integral_0^T cap dt,   peak = max used / cap
// where the peak ignores zero-length states (the network may pass through several at one instant)
// where T is the end of the run. Subscribing makes the network publish the events, so a run that
// does not need utilisation should not attach this. Links also get their utilisation over time in
// bounded bins (link_series.hpp).

#include <cstdint>
#include <vector>

#include "sim/core/simulator.hpp"
#include "sim/serving/link_series.hpp"
#include "sim/serving/request_metrics.hpp"

namespace lynxsim::serving {

class LinkUsage {
public:
  explicit LinkUsage(Simulator& sim);

  std::vector<LinkUtilisation> finish(Time end) const;
  // The width of the bins of LinkUtilisation::series of a run ending at `end`.
  Time series_bin_width(Time end) const { return series_.bin_width(end); }

private:
  struct Track {
    Time last_at;
    double used = 0.0;
    double capacity = 0.0;
    double used_integral = 0.0;
    double capacity_integral = 0.0;
    double peak = 0.0;
    bool seen = false;
  };
  std::vector<Track> links_;  // by link id
  LinkSeries series_;
};

}  // namespace lynxsim::serving
