#include "sim/serving/link_series.hpp"

#include <algorithm>
#include <limits>

namespace lynxsim::serving {
namespace {

constexpr std::int64_t kBinCount = static_cast<std::int64_t>(LinkSeries::kBins);

bool fits(Time width, Time to) {
  return width.ps() > std::numeric_limits<std::int64_t>::max() / (2 * kBinCount) ||
         to <= width * kBinCount;
}

}  // namespace

void LinkSeries::merge_pairs(Bins& bins) {
  for (std::size_t i = 0; i < kBins / 2; ++i) {
    bins.used[i] = bins.used[2 * i] + bins.used[2 * i + 1];
    bins.capacity[i] = bins.capacity[2 * i] + bins.capacity[2 * i + 1];
  }
  std::fill(bins.used.begin() + kBins / 2, bins.used.end(), 0.0);
  std::fill(bins.capacity.begin() + kBins / 2, bins.capacity.end(), 0.0);
}

void LinkSeries::accumulate(Bins& bins, Time width, const State& state, Time to) {
  Time t = state.from;
  while (t < to) {
    const std::int64_t bin = std::min(t.ps() / width.ps(), kBinCount - 1);
    const Time end = std::min(to, width * (bin + 1));
    const double dt = (end - t).seconds();
    bins.used[static_cast<std::size_t>(bin)] += state.used * dt;
    bins.capacity[static_cast<std::size_t>(bin)] += state.capacity * dt;
    if (end <= t) break;
    t = end;
  }
}

void LinkSeries::widen_to(Time to) {
  while (!fits(width_, to)) {
    for (Bins& bins : series_) merge_pairs(bins);
    width_ = width_ * 2;
  }
}

void LinkSeries::start(std::uint32_t link, Time at, double capacity) {
  if (slot_.size() <= link) slot_.resize(static_cast<std::size_t>(link) + 1, -1);
  if (slot_[link] >= 0 || series_.size() >= kMaxLinks) return;
  widen_to(at);
  slot_[link] = static_cast<std::int32_t>(series_.size());
  series_.push_back({std::vector<double>(kBins, 0.0), std::vector<double>(kBins, 0.0)});
  accumulate(series_.back(), width_, {Time::zero(), 0.0, capacity}, at);
}

void LinkSeries::add(std::uint32_t link, const State& state, Time to) {
  if (link >= slot_.size() || slot_[link] < 0 || !(state.from < to)) return;
  widen_to(to);
  accumulate(series_[static_cast<std::size_t>(slot_[link])], width_, state, to);
}

Time LinkSeries::bin_width(Time end) const {
  Time width = width_;
  while (!fits(width, end)) width = width * 2;
  return width;
}

std::vector<double> LinkSeries::utilisation(std::uint32_t link, const State& last, Time end) const {
  if (link >= slot_.size() || slot_[link] < 0) return {};
  Bins bins = series_[static_cast<std::size_t>(slot_[link])];
  Time width = width_;
  while (!fits(width, end)) {
    merge_pairs(bins);
    width = width * 2;
  }
  if (last.from < end) accumulate(bins, width, last, end);
  const std::int64_t used_bins = std::max<std::int64_t>(1, (end.ps() + width.ps() - 1) / width.ps());
  std::vector<double> out(static_cast<std::size_t>(std::min(used_bins, kBinCount)), 0.0);
  for (std::size_t i = 0; i < out.size(); ++i) {
    if (bins.capacity[i] > 0.0) out[i] = bins.used[i] / bins.capacity[i];
  }
  return out;
}

}  // namespace lynxsim::serving
