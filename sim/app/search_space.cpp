#include "sim/app/search_space.hpp"

#include <algorithm>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "sim/scenario/card_files.hpp"
#include "sim/scenario/network_preset.hpp"

namespace lynxsim::app {
namespace {

using nlohmann::json;

struct NetworkChoice {
  std::string label;
  std::vector<std::string> overrides;
};

template <class T>
std::vector<T> or_base(const std::vector<T>& choices, const T& base) {
  return choices.empty() ? std::vector<T>{base} : choices;
}

std::vector<NetworkChoice> network_choices(const scenario::SearchSpec& search, const DataPaths& data) {
  const scenario::SearchChoices& c = search.choices;
  std::vector<NetworkChoice> out;
  for (const std::string& rate : c.link_rate) out.push_back({rate, {"network.bandwidth=" + rate}});
  scenario::IssueList issues;
  for (std::size_t i = 0; i < c.network.size(); ++i) {
    const json& n = c.network[i];
    if (!n.is_string()) {
      out.push_back({n.value("preset", fmt::format("network {}", i)), {"network=" + n.dump()}});
      continue;
    }
    const auto expanded = scenario::load_network_preset(n.get<std::string>(), data, search.base.parent_path(),
                                                        fmt::format("/choices/network/{}", i), issues);
    if (expanded) out.push_back({n.get<std::string>(), {"network=" + expanded->dump()}});
  }
  issues.throw_if_any(search.source_file);
  if (out.empty()) out.push_back({"base", {}});
  return out;
}

void check_gpu_names(const scenario::SearchSpec& search, const DataPaths& data) {
  const std::vector<std::string> known = scenario::card_names(data.gpus());
  scenario::IssueList issues;
  const auto check = [&](const std::vector<std::string>& names, const char* key) {
    for (std::size_t i = 0; i < names.size(); ++i) {
      if (std::find(known.begin(), known.end(), names[i]) != known.end()) continue;
      issues.add(fmt::format("/choices/{}/{}", key, i),
                 fmt::format("unknown GPU \"{}\" (known: {})", names[i], fmt::join(known, ", ")));
    }
  };
  check(search.choices.prefill_gpu, "prefill_gpu");
  check(search.choices.decode_gpu, "decode_gpu");
  issues.throw_if_any(search.source_file);
}

std::vector<std::pair<RoleChoice, RoleChoice>> instance_choices(const scenario::SearchChoices& c,
                                                                const RoleChoice& p, const RoleChoice& d) {
  std::vector<std::pair<RoleChoice, RoleChoice>> out;
  for (const int ptp : or_base(c.prefill_tp, p.tensor_parallel)) {
    for (const int dtp : or_base(c.decode_tp, d.tensor_parallel)) {
      const auto add = [&](int pc, int dc) { out.push_back({{p.gpu, ptp, pc}, {d.gpu, dtp, dc}}); };
      if (c.gpu_budget) {
        for (const auto& [rp, rd] : c.pd_ratio) {
          const int k = *c.gpu_budget / (rp * ptp + rd * dtp);
          if (k > 0) add(k * rp, k * rd);
        }
        continue;
      }
      for (const int pc : or_base(c.prefill_count, p.count)) {
        for (const int dc : or_base(c.decode_count, d.count)) add(pc, dc);
      }
    }
  }
  return out;
}

std::vector<std::string> role_overrides(const char* role, const RoleChoice& r) {
  return {fmt::format("{}.gpu={}", role, r.gpu), fmt::format("{}.tp={}", role, r.tensor_parallel),
          fmt::format("{}.count={}", role, r.count)};
}

std::vector<json> method_choices(const scenario::SearchSpec& search, const scenario::Scenario& base) {
  if (!search.choices.method.empty()) return search.choices.method;
  std::vector<json> out;
  for (const auto& m : base.resolved.at("methods")) out.push_back(m);
  return out;
}

std::string method_label(const json& m) { return m.is_string() ? m.get<std::string>() : m.value("name", m.value("preset", "?")); }

}  // namespace

std::string SearchConfig::key() const {
  return fmt::format("prefill {}x{} tp{} | decode {}x{} tp{} | network {} | scheduling {} | method {}",
                     prefill.count, prefill.gpu, prefill.tensor_parallel, decode.count, decode.gpu,
                     decode.tensor_parallel, network, scheduling, method);
}

std::string rate_override(double requests_per_s) {
  return fmt::format("workload.synthetic.rate_per_s={}", json(requests_per_s).dump());
}

std::vector<SearchConfig> search_configs(const scenario::SearchSpec& search, const scenario::Scenario& base,
                                         const DataPaths& data) {
  const scenario::SearchChoices& c = search.choices;
  const serving::ServingConfig& sv = base.serving;
  check_gpu_names(search, data);
  const auto networks = network_choices(search, data);
  std::vector<SearchConfig> out;
  for (const auto& pg : or_base(c.prefill_gpu, sv.prefill.gpu.name)) {
    for (const auto& dg : or_base(c.decode_gpu, sv.decode.gpu.name)) {
      const RoleChoice p{pg, sv.prefill.tensor_parallel, sv.prefill.count};
      const RoleChoice d{dg, sv.decode.tensor_parallel, sv.decode.count};
      for (const auto& [pr, dr] : instance_choices(c, p, d)) {
        for (const NetworkChoice& n : networks) {
          for (const auto& policy : or_base(c.scheduling, std::string("base"))) {
            for (const json& m : method_choices(search, base)) {
              SearchConfig cfg{pr, dr, n.label, policy, method_label(m), search.set};
              for (const auto& o : role_overrides("prefill", pr)) cfg.overrides.push_back(o);
              for (const auto& o : role_overrides("decode", dr)) cfg.overrides.push_back(o);
              cfg.overrides.insert(cfg.overrides.end(), n.overrides.begin(), n.overrides.end());
              if (policy != "base") cfg.overrides.push_back("network.scheduling.policy=" + policy);
              cfg.overrides.push_back("methods=" + json::array({m}).dump());
              out.push_back(std::move(cfg));
            }
          }
        }
      }
    }
  }
  return out;
}

}  // namespace lynxsim::app
