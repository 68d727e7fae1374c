#pragma once
// Link utilisation over time, in a bounded number of equal time bins (the results page's chart).
//
// A link's load is piecewise constant between LinkLoadChanged events (link_usage.hpp). The run is
// cut into bins of width w, starting at t = 0; bin b covers [b w, (b + 1) w). For a link with
// used(t) its summed flow rate and cap(t) its goodput capacity,
//   utilisation of bin b = integral_bin used dt / integral_bin cap dt   (0 when cap integrates to 0).
// w starts at kFirstBinWidth and doubles, merging neighbouring bins pairwise, whenever a load
// reaches beyond kBins bins, so a run of any length keeps between kBins / 2 and kBins bins of at
// least 1 us. Only the first kMaxLinks links to carry traffic get a series, so memory stays under
// kMaxLinks x kBins x 16 bytes (256 KiB) whatever the topology; the others keep their mean and
// peak (link_usage.hpp) only. A link's capacity before it first carries traffic is taken as its
// capacity at that moment (it was idle, so only the first busy bin's share depends on it). The bins
// are deterministic: integer picoseconds, and sums in event order.

#include <cstddef>
#include <cstdint>
#include <vector>

#include "sim/core/time.hpp"

namespace lynxsim::serving {

class LinkSeries {
public:
  static constexpr std::size_t kBins = 64;
  static constexpr std::size_t kMaxLinks = 256;
  static constexpr Time kFirstBinWidth = Time::from_ps(1'000'000);

  // The state of a link from `from` on, load `used` and capacity `capacity` (bytes/s).
  struct State {
    Time from;
    double used = 0.0;
    double capacity = 0.0;
  };

  // `link` starts carrying traffic at `at`: gives it a series while fewer than kMaxLinks have one.
  void start(std::uint32_t link, Time at, double capacity);
  // Adds the state `state` of `link` up to `to` (nothing for a link without a series).
  void add(std::uint32_t link, const State& state, Time to);

  // The bins covering [0, end) of `link` as utilisation, its current state `last` running to `end`
  // (empty when the link has no series).
  std::vector<double> utilisation(std::uint32_t link, const State& last, Time end) const;
  // The bin width of the series of a run ending at `end`.
  Time bin_width(Time end) const;

private:
  struct Bins {
    std::vector<double> used;
    std::vector<double> capacity;
  };
  static void merge_pairs(Bins& bins);
  static void accumulate(Bins& bins, Time width, const State& state, Time to);
  void widen_to(Time to);

  Time width_ = kFirstBinWidth;
  std::vector<std::int32_t> slot_;  // by link id: index into series_, or -1
  std::vector<Bins> series_;
};

}  // namespace lynxsim::serving
