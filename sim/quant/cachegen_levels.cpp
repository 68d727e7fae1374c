#include "sim/quant/cachegen_levels.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace lynxsim::quant {
namespace {

void check_bins(int bins) {
  if (bins < 4 || bins > 128 || bins % 2 != 0) {
    throw std::invalid_argument("CacheGen: bin count must be even and in [4, 128], got " +
                                std::to_string(bins));
  }
}

CacheGenLevel make_level(const char* name, int early_bins, int late_bins) {
  return CacheGenLevel{name, CacheGenBinRule{early_bins, late_bins, 10},
                       CacheGenBinRule{early_bins, late_bins, 2}};
}

}  // namespace

const std::vector<CacheGenLevel>& cachegen_default_levels() {
  static const std::vector<CacheGenLevel> levels{
      make_level("cachegen-64/32", 64, 32),
      make_level("cachegen-32/16", 32, 16),
      make_level("cachegen-16/8", 16, 8),
      make_level("cachegen-8/4", 8, 4),
  };
  return levels;
}

int cachegen_early_layers(const CacheGenBinRule& rule, int num_layers) {
  if (num_layers < 1) throw std::invalid_argument("CacheGen: num_layers must be >= 1");
  if (rule.early_layers_of_32 < 0 || rule.early_layers_of_32 > 32) {
    throw std::invalid_argument("CacheGen: early_layers_of_32 must be in [0, 32]");
  }
  if (rule.early_layers_of_32 == 0) return 0;
  const double scaled = std::round(rule.early_layers_of_32 * num_layers / 32.0);
  return std::clamp(static_cast<int>(scaled), 1, num_layers);
}

int cachegen_bins(const CacheGenLevel& level, KvKind kind, int layer, int num_layers) {
  if (layer < 0 || layer >= num_layers) {
    throw std::invalid_argument("CacheGen: layer " + std::to_string(layer) + " outside [0, " +
                                std::to_string(num_layers) + ")");
  }
  const CacheGenBinRule& rule = kind == KvKind::Key ? level.keys : level.values;
  check_bins(rule.early_bins);
  check_bins(rule.late_bins);
  return layer < cachegen_early_layers(rule, num_layers) ? rule.early_bins : rule.late_bins;
}

int cachegen_half_levels(int bins) {
  check_bins(bins);
  return bins / 2 - 1;
}

}  // namespace lynxsim::quant
