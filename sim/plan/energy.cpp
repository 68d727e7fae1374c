#include "sim/plan/energy.hpp"

#include <algorithm>
#include <stdexcept>
#include <vector>

#include <fmt/format.h>

#include "sim/compute/timing_model.hpp"

namespace lynxsim::plan {
namespace {

struct Hops {
  int operator()(const net::SingleLinkTopology&) const { return 0; }
  int operator()(const net::LeafSpineTopology&) const { return 3; }
  int operator()(const net::FatTreeTopology&) const { return 5; }
  int operator()(const net::CrossDcTopology&) const { return 2; }
  int operator()(const net::NvlinkIslandTopology&) const { return 1; }
  int operator()(const net::GraphTopology& t) const { return t.switches.empty() ? 0 : 1; }
};

struct Role {
  std::vector<serving::InstanceSpec> instances;
  std::vector<TimingModel> timing;
  std::vector<GpuPower> power;
};

Role role_of(const serving::ServingConfig& config, const serving::InstanceSpec& first,
             const std::vector<serving::InstanceSpec>& extra, const EnergyTable& table) {
  Role r;
  r.instances = serving::expand_instances(first, extra);
  for (const serving::InstanceSpec& i : r.instances) {
    const auto it = table.gpus.find(i.gpu.name);
    if (it == table.gpus.end()) {
      throw std::invalid_argument(fmt::format("no power figures for GPU \"{}\" in the energy table", i.gpu.name));
    }
    r.timing.emplace_back(config.model, i.gpu, i.tensor_parallel);
    r.timing.back().set_parallel_layout(i.parallel);
    r.power.push_back(it->second);
  }
  return r;
}

double full_power_seconds(const OpTiming& op, const HardwareSpec& gpu) {
  return std::max(op.flops / gpu.peak_bf16.value, op.bytes / gpu.hbm_bandwidth.value);
}

double swing(const GpuPower& p) { return p.peak_w - p.idle_w; }

double idle_energy(const Role& role, double seconds) {
  double j = 0.0;
  for (std::size_t i = 0; i < role.instances.size(); ++i) {
    j += role.power[i].idle_w * role.instances[i].tensor_parallel * seconds;
  }
  return j;
}

double prefill_energy(const Role& p, const serving::RequestMetrics& r) {
  const auto i = static_cast<std::size_t>(r.prefill_instance);
  if (r.prefill_instance < 0 || i >= p.instances.size()) return 0.0;
  const int tokens = std::max(1, r.context_tokens - r.cached_tokens);
  return swing(p.power[i]) * p.instances[i].tensor_parallel *
         full_power_seconds(p.timing[i].prefill(tokens), p.instances[i].gpu);
}

double busy_seconds(std::vector<std::pair<Time, Time>> spans) {
  std::sort(spans.begin(), spans.end());
  double busy = 0.0;
  Time end = Time::zero();
  for (const auto& [a, b] : spans) {
    const Time from = std::max(a, end);
    if (b > from) busy += (b - from).seconds();
    end = std::max(end, b);
  }
  return busy;
}

double decode_energy(const Role& d, std::size_t i, const std::vector<const serving::RequestMetrics*>& requests) {
  std::vector<std::pair<Time, Time>> spans;
  double decoding = 0.0;
  double kv = 0.0;
  for (const serving::RequestMetrics* r : requests) {
    spans.emplace_back(r->decode_joined_at, r->last_token_at);
    decoding += (r->last_token_at - r->decode_joined_at).seconds();
    kv += r->context_tokens + r->output_tokens / 2.0;
  }
  const double busy = busy_seconds(spans);
  if (busy <= 0.0) return 0.0;
  const int batch = std::max(1, static_cast<int>(decoding / busy + 0.5));
  const std::vector<int> lengths(static_cast<std::size_t>(batch), static_cast<int>(kv / static_cast<double>(requests.size())));
  const OpTiming step = d.timing[i].decode_step(lengths);
  const double u = std::min(1.0, full_power_seconds(step, d.instances[i].gpu) / step.time.seconds());
  return swing(d.power[i]) * d.instances[i].tensor_parallel * busy * u;
}

double codec_energy(const Role& p, const Role& d, const quant::MethodSpec& m, const serving::RequestMetrics& r) {
  if (m.bits >= 16 || r.prefill_instance < 0) return 0.0;
  const auto pi = static_cast<std::size_t>(r.prefill_instance);
  const auto di = static_cast<std::size_t>(r.decode_instance);
  if (pi >= p.instances.size() || di >= d.instances.size()) return 0.0;
  const double bf16 = static_cast<double>(p.timing[pi].kv_bytes_per_rank(r.context_tokens).value) *
                      p.instances[pi].tensor_parallel;
  double coded = 0.0;
  for (const Bytes b : r.plane_bytes) coded += static_cast<double>(b.value);
  const HardwareSpec& pg = p.instances[pi].gpu;
  const HardwareSpec& dg = d.instances[di].gpu;
  if (m.family == quant::MethodFamily::cachegen) {
    return swing(p.power[pi]) * bf16 / (m.cachegen.encode_mb_per_s * 1e6) +
           swing(d.power[di]) * bf16 / (m.cachegen.decode_mb_per_s * 1e6);
  }
  return swing(p.power[pi]) * (bf16 + coded) / pg.hbm_bandwidth.value +
         swing(d.power[di]) * (bf16 + coded) / dg.hbm_bandwidth.value;
}

}  // namespace

int switch_hops(const net::TopologySpec& topology) { return std::visit(Hops{}, topology); }

serving::EnergyTotals run_energy(const serving::ServingConfig& config, const serving::MethodResult& result,
                                 const EnergyTable& table, int hops) {
  const Role p = role_of(config, config.prefill, config.extra_prefill, table);
  const Role d = role_of(config, config.decode, config.extra_decode, table);
  serving::EnergyTotals e;
  const double seconds = result.simulated_time.seconds();
  e.gpu_idle_j = idle_energy(p, seconds) + idle_energy(d, seconds);
  std::vector<std::vector<const serving::RequestMetrics*>> by_decode(d.instances.size());
  double tokens = 0.0;
  const double per_byte = 8.0 * (2.0 * table.nic_j_per_bit + hops * table.switch_j_per_bit);
  for (const serving::RequestMetrics& r : result.requests) {
    e.gpu_work_j += prefill_energy(p, r);
    e.codec_j += codec_energy(p, d, result.method, r);
    e.network_j += per_byte * static_cast<double>(r.kv_bytes_sent.value);
    tokens += r.output_tokens;
    const auto di = static_cast<std::size_t>(r.decode_instance);
    if (r.decode_instance >= 0 && di < by_decode.size() && !r.failed()) by_decode[di].push_back(&r);
  }
  for (std::size_t i = 0; i < by_decode.size(); ++i) {
    if (!by_decode[i].empty()) e.gpu_work_j += decode_energy(d, i, by_decode[i]);
  }
  const double total = e.total_j();
  e.per_request_j = result.requests.empty() ? 0.0 : total / static_cast<double>(result.requests.size());
  e.per_token_j = tokens > 0.0 ? total / tokens : 0.0;
  return e;
}

}  // namespace lynxsim::plan
