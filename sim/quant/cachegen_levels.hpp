#pragma once
// CacheGen quality levels: how many quantization bins each layer of K and V gets.
//
// CacheGen (Liu et al., SIGCOMM 2024; released in LMCache) quantizes shallow layers finer than deep
// ones because errors in shallow layers propagate through more of the network. Its released
// configuration for 32-layer models gives keys 32 bins in the first 10 layers and 16 after, values
// 32 bins in the first 2 layers and 16 after. A level here is that rule as data:
//   bins(kind, layer) = early_bins if layer < early_layers(kind, num_layers) else late_bins,
//   early_layers(kind, L) = round(early_layers_of_32 * L / 32), at least 1 when early_layers_of_32 > 0,
// so a model of L layers keeps the same fraction of fine layers as the 32-layer reference.
//
// A bin count B means CacheGen's symmetric quantizer with h = B/2 - 1 steps on each side of zero,
// codes q in [-h, h] (B - 1 levels; CacheGen counts the bins as B). B must be even and in [4, 128].
//
// The default ladder (index 0 = highest quality), keys early/late and values early/late:
//   level 0: 64/32 and 64/32      (one bit finer than the paper everywhere)
//   level 1: 32/16 and 32/16      (the paper's released configuration)
//   level 2: 16/8  and 16/8
//   level 3: 8/4   and 8/4        (coarsest: 3 levels per sample in deep layers)
// with key early layers 10 of 32 and value early layers 2 of 32 at every level.

#include <string>
#include <vector>

namespace lynxsim::quant {

enum class KvKind { Key, Value };

struct CacheGenBinRule {
  int early_bins = 32;
  int late_bins = 16;
  int early_layers_of_32 = 10;  // number of fine layers in a 32-layer model
};

struct CacheGenLevel {
  std::string name;
  CacheGenBinRule keys;
  CacheGenBinRule values;
};

// The default ladder above; index 0 is the highest quality.
const std::vector<CacheGenLevel>& cachegen_default_levels();

// Number of fine layers of a num_layers-layer model under a rule (see the header essay).
int cachegen_early_layers(const CacheGenBinRule& rule, int num_layers);

// Bins for one layer of K or V; throws std::invalid_argument on a bad layer, layer count or rule.
int cachegen_bins(const CacheGenLevel& level, KvKind kind, int layer, int num_layers);

// Steps on each side of zero for a bin count: h = B/2 - 1.
int cachegen_half_levels(int bins);

}  // namespace lynxsim::quant
