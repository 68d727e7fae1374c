#include "sim/report/estimate_json.hpp"

#include <nlohmann/json.hpp>

namespace lynxsim::report {
namespace {

constexpr int kSchemaVersion = 1;

nlohmann::json layer_json(const LayerEstimate& l) {
  return {{"linear_flops", l.linear_flops},       {"linear_time_s", l.linear_time_s},
          {"linear_bound", to_string(l.linear_bound)},
          {"attention_flops", l.attention_flops}, {"attention_time_s", l.attention_time_s},
          {"attention_bound", to_string(l.attention_bound)},
          {"elementwise_time_s", l.elementwise_time_s},
          {"allreduce_time_s", l.allreduce_time_s}, {"overhead_time_s", l.overhead_time_s},
          {"total_time_s", l.total_time_s}};
}

nlohmann::json kinds_json(const std::vector<LayerKindKv>& kinds) {
  nlohmann::json out = nlohmann::json::array();
  for (const LayerKindKv& k : kinds) {
    out.push_back({{"kind", k.kind}, {"attention", k.attention}, {"layers", k.layers},
                   {"bytes_per_token_per_layer", k.bytes_per_token_per_layer},
                   {"window_tokens", k.window}, {"state_bytes_per_layer", k.state_bytes_per_layer}});
  }
  return out;
}

nlohmann::json weights_json(const std::vector<PartPrecision>& parts) {
  nlohmann::json out = nlohmann::json::array();
  for (const PartPrecision& p : parts) {
    out.push_back({{"part", p.part}, {"format", to_string(p.format)},
                   {"bytes_per_weight", bytes_per_weight(p.format)}, {"gemm_precision", to_string(p.precision)},
                   {"scheme", p.scheme()}});
  }
  return out;
}

nlohmann::json layout_json(const ExpertParallelLayout& layout) {
  return {{"attention_dp", layout.attention_dp},
          {"expert_parallel", layout.expert_parallel},
          {"expert_load_imbalance", layout.load_imbalance}};
}

}  // namespace

std::string estimate_json(const Estimate& e) {
  const nlohmann::json j = {
      {"schema_version", kSchemaVersion},
      {"model", e.model},
      {"hardware", e.hardware},
      {"engine", e.engine},
      {"context", e.request.context},
      {"batch", e.request.batch},
      {"tensor_parallel", e.request.tensor_parallel},
      {"prefill_layout", layout_json(e.prefill_layout)},
      {"decode_layout", layout_json(e.decode_layout)},
      {"prefill_time_s", e.prefill_time_s},
      {"prefill_bound", to_string(e.prefill_bound)},
      {"decode_step_time_s", e.decode_step_time_s},
      {"decode_bound", to_string(e.decode_bound)},
      {"decode_tokens_per_s", e.decode_tokens_per_s},
      {"output_tokens", e.request.output_tokens},
      {"static_batch_time_s",
       e.request.output_tokens > 0 ? nlohmann::json(e.static_batch_time_s) : nlohmann::json()},
      {"kv_bytes_per_token", e.kv_bytes_per_token},
      {"kv_bytes_per_token_per_rank", e.kv_bytes_per_token_per_rank},
      {"kv_replication", e.kv_replication},
      {"weight_bytes_per_rank", e.weight_bytes_per_rank},
      {"weights", weights_json(e.weights)},
      {"kv_bytes_per_rank", e.kv_bytes_per_rank},
      {"kv_bytes_per_sequence", e.kv_bytes_per_sequence},
      {"kv_by_layer_kind", kinds_json(e.kv_by_kind)},
      {"hbm_capacity_bytes", e.hbm_capacity},
      {"fits_in_hbm", e.fits_in_hbm},
      {"prefill_layer", layer_json(e.prefill_layer)},
      {"decode_layer", layer_json(e.decode_layer)}};
  return j.dump(2) + "\n";
}

}  // namespace lynxsim::report
