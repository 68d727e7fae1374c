// read_hardware_profile and read_engine_profile (card_reader.hpp): the gpu-profile and
// engine-profile tables of card_fields.cpp, each quantity a sourced value (card_values.hpp).

#include <string>

#include "sim/scenario/card_fields.hpp"
#include "sim/scenario/card_reader.hpp"
#include "sim/scenario/card_values.hpp"

namespace lynxsim::scenario {
namespace {

// Reads the sourced values of one table.
class ProfileReader {
public:
  ProfileReader(ObjectReader& r, std::string_view table) : r_(r), t_(field_section(table)) {}

  double number(std::string_view key) {
    return sourced(r_, t_[key], [](ObjectReader& in, const Field& f) { return in.number(f); })
        .value_or(0.0);
  }
  bool boolean(std::string_view key) {
    return sourced(r_, t_[key], [](ObjectReader& in, const Field& f) { return in.boolean(f); })
        .value_or(false);
  }
  Time time(std::string_view key) {
    return sourced(r_, t_[key], [](ObjectReader& in, const Field& f) { return in.time(f); })
        .value_or(Time::zero());
  }
  FlopsPerSecond flops(std::string_view key) {
    return sourced(r_, t_[key], flop_rate).value_or(FlopsPerSecond{});
  }
  BytesPerSecond bytes_per_s(std::string_view key) {
    return sourced(r_, t_[key], byte_rate).value_or(BytesPerSecond{});
  }
  BitsPerSecond bits_per_s(std::string_view key) {
    return sourced(r_, t_[key], [](ObjectReader& in, const Field& f) { return in.bit_rate(f); })
        .value_or(BitsPerSecond{});
  }
  Bytes size(std::string_view key) { return sourced(r_, t_[key], card_size).value_or(Bytes{}); }

  // schema_version, preset, name and description, into `name` and `description`.
  void header(std::string& name, std::string& description) {
    r_.integer(t_["schema_version"]);
    r_.string(t_["preset"]);
    name = nonempty_text(r_, t_["name"]).value_or("");
    description = nonempty_text(r_, t_["description"]).value_or("");
  }
  void finish() {
    r_.string(t_["comment"]);
    r_.finish();
  }

private:
  ObjectReader& r_;
  const FieldSection& t_;
};

void read_efficiencies(ProfileReader& p, HardwareSpec& h) {
  h.compute_efficiency = p.number("compute_efficiency");
  h.memory_efficiency = p.number("memory_efficiency");
  h.attention_efficiency = p.number("attention_efficiency");
  h.causal_overhead_tokens = p.number("causal_overhead_tokens");
  h.kernel_memory_efficiency = p.number("kernel_memory_efficiency");
  h.gemm_half_tokens = p.number("gemm_half_tokens");
  h.elementwise_efficiency = p.number("elementwise_efficiency");
  h.kv_read_efficiency = p.number("kv_read_efficiency");
  h.scale_up_efficiency = p.number("scale_up_efficiency");
}

void read_costs(ProfileReader& p, HardwareSpec& h) {
  h.kernel_floor = p.time("kernel_floor");
  h.attention_floor = p.time("attention_floor");
  h.attention_block_time = p.time("attention_block_time");
  h.sm_count = static_cast<int>(std::lround(p.number("sm_count")));
  h.layer_overhead = p.time("layer_overhead");
  h.step_overhead = p.time("step_overhead");
  h.kernel_launch = p.time("kernel_launch");
}

}  // namespace

HardwareSpec read_hardware_profile(const nlohmann::json& card, const std::string& path,
                                   IssueList& issues) {
  ObjectReader r(card, path, issues);
  HardwareSpec h;
  if (!r.valid()) return h;
  ProfileReader p(r, "gpu-profile");
  p.header(h.name, h.description);
  h.peak_bf16 = p.flops("peak_bf16");
  h.peak_int8 = p.flops("peak_int8");
  h.peak_fp8 = p.flops("peak_fp8");
  h.peak_fp4 = p.flops("peak_fp4");
  h.hbm_capacity = p.size("hbm_capacity");
  h.hbm_bandwidth = p.bytes_per_s("hbm_bandwidth");
  read_efficiencies(p, h);
  read_costs(p, h);
  h.scale_up_bandwidth = p.bytes_per_s("scale_up_bandwidth");
  h.scale_up_latency = p.time("scale_up_latency");
  h.scale_up_step_latency = p.time("scale_up_step_latency");
  h.scale_up_ll_latency = p.time("scale_up_ll_latency");
  h.nic_bandwidth = p.bits_per_s("nic_bandwidth");
  p.finish();
  return h;
}

EngineSpec read_engine_profile(const nlohmann::json& card, const std::string& path,
                               IssueList& issues) {
  ObjectReader r(card, path, issues);
  EngineSpec e;
  if (!r.valid()) return e;
  ProfileReader p(r, "engine-profile");
  p.header(e.name, e.description);
  e.arrival_to_prefill = p.time("arrival_to_prefill");
  e.tokenize_per_token = p.time("tokenize_per_token");
  e.kv_connector_setup = p.time("kv_connector_setup");
  e.first_decode_launch = p.time("first_decode_launch");
  e.decode_tokenizes_prompt = p.boolean("decode_tokenizes_prompt");
  e.step_overhead = p.time("step_overhead");
  e.step_overhead_per_sequence = p.time("step_overhead_per_sequence");
  e.step_overhead_per_context_token = p.time("step_overhead_per_context_token");
  e.tp_step_overhead = p.time("tp_step_overhead");
  e.cuda_graphs = p.boolean("cuda_graphs");
  e.prefill_cuda_graphs = p.boolean("prefill_cuda_graphs");
  e.layer_launch_overhead = p.time("layer_launch_overhead");
  e.tp_comm_overlap = p.number("tp_comm_overlap");
  e.small_allreduce_latency = p.time("small_allreduce_latency");
  e.small_allreduce_max_bytes = p.size("small_allreduce_max_bytes").value;
  p.finish();
  return e;
}

}  // namespace lynxsim::scenario
