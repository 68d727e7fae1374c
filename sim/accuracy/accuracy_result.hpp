#pragma once
// The result of one precision/accuracy measurement (accuracy_run.hpp): one row per method and
// variant, and the acceptance probability of each speculative method. docs/accuracy.md defines every
// metric; in short, against the source KV (float32 synthetic or the captured file's values):
//   key_snr_db / value_snr_db     10·log10(signal energy / error energy) over the sampled heads
//   key_rel_l2 / value_rel_l2     sqrt(error energy / signal energy)
//   attention_kl                  mean KL(p_ref ‖ p_method) of the attention of the sampled queries
//   topk_recall                   mean share of the reference top-k attended tokens kept in the top-k
//   output_rel_error              mean ‖o − ô‖/‖o‖ of the attention outputs
//   top1_agreement                share of queries whose next-token proxy equals the reference's
//   needle                        needle-retrieval accuracy per context length (last = the context)
// acceptance_probability (speculative methods): share of queries whose proxy token from the anchor
// equals the one from the full KV; with linear-attention layers, that share over the attention
// layers and the share of state readouts whose proxy token from the anchored state equals the
// full state's, weighted by the number of layers of each kind.
//
// Layer kinds (layer_kinds): which tensor the rows measured per kind of layer: "kv" (per-head K
// and V of full or sliding-window layers; a sliding layer's blocks hold its last W tokens), "latent"
// (MLA: K SNR is the SNR of the whole 576-value latent row, V SNR that of its c_kv part, attention is
// multi-query over the latent) or "state" (linear-attention layers, measured in state_rows):
//   state_snr_db / state_rel_l2   over the flattened states of the sampled layers
//   readout_rel_error             mean ‖Sᵀq − Ŝᵀq‖/‖Sᵀq‖ over unit queries q
//   continued                     the same after n more tokens of the recurrence run from S and Ŝ

#include <cstdint>
#include <string>
#include <vector>

#include "sim/accuracy/kv/head_kv.hpp"

namespace lynxsim::accuracy {

struct AccuracySampling {
  int layers = 4;             // evenly spaced, first and last included
  int kv_heads = 2;           // evenly spaced KV heads in each sampled layer
  int queries_per_head = 8;   // attention queries, positions stratified over [T/2, T)
  int top_k = 32;
  int needle_probes = 4;      // needle queries per sampled head
  std::vector<double> needle_depths = {0.1, 0.3, 0.5, 0.7, 0.9};
  int needle_min_context = 1024;  // needle contexts: this, x4, x16, ... below T, then T
  int proxy_vocab = 4096;

  void validate() const;  // throws std::invalid_argument
  std::string canonical() const;
};

struct NeedlePoint {
  int context = 0;
  int trials = 0;
  int found = 0;
  double accuracy() const { return trials > 0 ? static_cast<double>(found) / trials : 0.0; }
};

struct MethodPrecision {
  std::string method;
  std::string variant;  // "full" or "anchor"
  double bits_per_element = 0.0;
  double key_snr_db = 0.0;
  double value_snr_db = 0.0;
  double key_rel_l2 = 0.0;
  double value_rel_l2 = 0.0;
  double attention_kl = 0.0;
  double topk_recall = 0.0;
  double output_rel_error = 0.0;
  double top1_agreement = 0.0;
  int queries = 0;
  std::vector<NeedlePoint> needle;  // ascending context

  std::string label() const;  // "int4", "lynx-4+4 anchor"
  double needle_accuracy() const { return needle.empty() ? 0.0 : needle.back().accuracy(); }
};

struct LayerKindSummary {
  std::string layer_kind;  // "full", "sliding" or "linear"
  std::string tensor;      // "kv", "latent" or "state"
  int layers = 0;
  int tokens = 0;          // tokens a layer of this kind sends and attends (1 for a state)
};

struct StateCheckpoint {
  int steps = 0;
  double state_rel_l2 = 0.0;
  double readout_rel_error = 0.0;
};

struct StatePrecision {
  std::string method;
  std::string variant;
  double bits_per_element = 0.0;
  double state_snr_db = 0.0;
  double state_rel_l2 = 0.0;
  double readout_rel_error = 0.0;
  int readouts = 0;
  std::vector<StateCheckpoint> continued;  // ascending steps

  std::string label() const;
};

struct MethodAcceptance {
  std::string method;
  double acceptance_probability = 0.0;
  int samples = 0;
};

struct AccuracyResult {
  int schema_version = 1;
  KvGeometry geometry;
  int context = 0;
  std::uint64_t seed = 0;
  std::string source;  // "synthetic:<profile name>" or "file:<path>"
  AccuracySampling sampling;
  std::vector<int> sampled_layers;
  std::vector<int> sampled_kv_heads;
  std::vector<MethodPrecision> rows;
  std::vector<MethodAcceptance> acceptance;
  std::vector<LayerKindSummary> layer_kinds;
  std::vector<int> sampled_state_layers;
  std::vector<StatePrecision> state_rows;
  bool from_cache = false;  // set by run_accuracy, not stored

  // The row of (method, variant); throws std::out_of_range when absent.
  const MethodPrecision& row(const std::string& method, const std::string& variant = "full") const;
  // The acceptance probability of a speculative method; throws std::out_of_range when absent.
  double acceptance_probability(const std::string& method) const;
};

}  // namespace lynxsim::accuracy
