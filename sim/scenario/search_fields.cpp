// The key tables of a search file, of a price table and of an energy table (field_table.hpp).

#include <array>

#include "sim/scenario/search_fields.hpp"

#pragma GCC diagnostic ignored "-Wmissing-field-initializers"

namespace lynxsim::scenario {
namespace {

using T = FieldType;
constexpr double kMaxChoiceTp = 1024;
constexpr double kMaxChoiceCount = 4096;
constexpr double kMaxRate = 1e12;

constexpr std::array kSearch{
    Field{.key = "schema_version", .type = T::integer, .doc = "the version of this format",
          .min = 1, .max = 1, .required = true},
    Field{.key = "name", .type = T::text,
          .doc = "1-100 characters of letters, digits and `. _ + -`, starting with a letter or digit "
                 "(it names the default results folder `results/search/<name>/`)",
          .required = true},
    Field{.key = "description", .type = T::text, .doc = "free text", .default_json = "\"\""},
    Field{.key = "base", .type = T::text,
          .doc = "the base scenario file, relative to the search file's folder; its workload must be "
                 "`synthetic` (the search sets its `rate_per_s`)",
          .required = true},
    Field{.key = "set", .doc = "array of `path=value` overrides of the base scenario, as `--set` takes them",
          .default_doc = "none"},
    Field{.key = "choices", .doc = "the values to try (below); every combination is a configuration",
          .default_doc = "the base scenario alone"},
    Field{.key = "targets", .doc = "what a rate must meet (below)", .required = true},
    Field{.key = "rate", .doc = "the range and tolerance of the bisection on the request rate (below)",
          .required = true},
    Field{.key = "prices", .type = T::text,
          .doc = "a price table file, relative to the search file's folder (format below)",
          .default_doc = "`data/prices.json`"},
    Field{.key = "gpu_prices", .doc = "object of GPU name to US dollars per GPU-hour, overriding the "
                                      "price table's rows (source: the search file)",
          .default_doc = "none"},
};

constexpr std::array kChoices{
    Field{.key = "prefill_gpu", .doc = "array of GPU names of `configs/gpus/` for prefill instances",
          .default_doc = "the base's"},
    Field{.key = "decode_gpu", .doc = "as `prefill_gpu`, for decode instances", .default_doc = "the base's"},
    Field{.key = "prefill_tp", .doc = "array of integers in 1..1024: tensor-parallel GPUs per prefill instance",
          .default_doc = "the base's", .min = 1, .max = kMaxChoiceTp},
    Field{.key = "decode_tp", .doc = "as `prefill_tp`, for decode instances", .default_doc = "the base's",
          .min = 1, .max = kMaxChoiceTp},
    Field{.key = "prefill_count", .doc = "array of integers in 1..4096: prefill instances (not with `gpu_budget`)",
          .default_doc = "the base's", .min = 1, .max = kMaxChoiceCount},
    Field{.key = "decode_count", .doc = "as `prefill_count`, for decode instances", .default_doc = "the base's",
          .min = 1, .max = kMaxChoiceCount},
    Field{.key = "gpu_budget", .type = T::integer,
          .doc = "GPUs in all: with `pd_ratio` P:D, the most instances k * P prefill and k * D decode whose "
                 "GPUs fit the budget",
          .default_doc = "none", .min = 1, .max = kMaxChoiceCount * kMaxChoiceTp},
    Field{.key = "pd_ratio", .doc = "array of `\"P:D\"` strings (integers in 1..64): prefill to decode "
                                    "instances, with `gpu_budget`",
          .default_doc = "`[\"1:1\"]` with `gpu_budget`"},
    Field{.key = "network", .doc = "array of networks: preset names of `configs/topologies/` or network "
                                   "objects (docs/scenario.md)",
          .default_doc = "the base's"},
    Field{.key = "link_rate", .doc = "array of rates: the single link's bandwidth (a base network in the "
                                     "single-link shorthand only)",
          .default_doc = "the base's"},
    Field{.key = "method", .doc = "array of methods (names or objects, docs/scenario.md): one per configuration",
          .default_doc = "each of the base's"},
    Field{.key = "scheduling", .doc = "array of plane scheduling policies (`network.scheduling.policy`)",
          .default_doc = "the base's"},
};

constexpr std::array kTargets{
    Field{.key = "ttft", .type = T::duration, .doc = "bound on the TTFT percentile",
          .default_doc = "none (one of `ttft`, `tpot` required)", .min = kPositiveDuration},
    Field{.key = "ttft_percentile", .type = T::number, .doc = "percentile of TTFT held to `ttft`",
          .default_json = "90", .min = 0, .max = 100, .open_min = true},
    Field{.key = "tpot", .type = T::duration, .doc = "bound on the TPOT percentile",
          .default_doc = "none (one of `ttft`, `tpot` required)", .min = kPositiveDuration},
    Field{.key = "tpot_percentile", .type = T::number, .doc = "percentile of TPOT held to `tpot`",
          .default_json = "90", .min = 0, .max = 100, .open_min = true},
    Field{.key = "attainment", .type = T::number,
          .doc = "least share of requests within both bounds (DistServe's SLO attainment)",
          .default_doc = "none", .min = 0, .max = 1, .open_min = true},
    Field{.key = "ttft_reading", .type = T::choice,
          .doc = "which TTFT the bounds read: the first verified token, or the first token made (a draft "
                 "for speculative methods)",
          .default_json = "\"committed\"", .choices = "committed|speculative"},
};

constexpr std::array kRate{
    Field{.key = "min", .type = T::number, .doc = "lowest rate tried, requests per second (a bare number)",
          .min = 0, .max = kMaxRate, .required = true, .open_min = true},
    Field{.key = "max", .type = T::number, .doc = "highest rate tried, above `min`",
          .min = 0, .max = kMaxRate, .required = true, .open_min = true},
    Field{.key = "tolerance", .type = T::number,
          .doc = "relative: the highest rate meeting the targets lies in [found, found * (1 + tolerance))",
          .default_json = "0.05", .min = 1e-4, .max = 1},
};

constexpr std::array kPrices{
    Field{.key = "schema_version", .type = T::integer, .doc = "the version of this format",
          .min = 1, .max = 1, .required = true},
    Field{.key = "description", .type = T::text, .doc = "free text", .default_json = "\"\""},
    Field{.key = "gpus", .doc = "array of GPU prices (below)", .required = true},
    Field{.key = "ports", .doc = "array of network port prices (below), by ascending rate", .required = true},
};

constexpr std::array kGpuPrice{
    Field{.key = "gpu", .type = T::name, .doc = "a GPU name of `configs/gpus/`", .required = true},
    Field{.key = "usd_per_hour", .type = T::number, .doc = "US dollars per GPU-hour", .min = 0, .max = 1e6,
          .required = true},
    Field{.key = "source", .type = T::text, .doc = "where the price comes from", .required = true},
    Field{.key = "date", .type = T::text, .doc = "when it was read (YYYY-MM)", .required = true},
};

constexpr std::array kPortPrice{
    Field{.key = "rate", .type = T::rate, .doc = "the port's line rate", .required = true},
    Field{.key = "usd_per_hour", .type = T::number,
          .doc = "US dollars per hour of one port: NIC and switch port, amortized",
          .min = 0, .max = 1e6, .required = true},
    Field{.key = "source", .type = T::text, .doc = "where the price comes from", .required = true},
    Field{.key = "date", .type = T::text, .doc = "when it was read (YYYY-MM)", .required = true},
};

constexpr std::array kEnergy{
    Field{.key = "schema_version", .type = T::integer, .doc = "the version of this format",
          .min = 1, .max = 1, .required = true},
    Field{.key = "description", .type = T::text, .doc = "free text", .default_json = "\"\""},
    Field{.key = "gpus", .doc = "array of GPU power figures (below)", .required = true},
    Field{.key = "nic_pj_per_bit", .type = T::number, .doc = "energy of a NIC per bit sent or received, picojoules",
          .min = 0, .max = 1e6, .required = true},
    Field{.key = "nic_source", .type = T::text, .doc = "where the NIC figure comes from", .required = true},
    Field{.key = "switch_pj_per_bit", .type = T::number, .doc = "energy of a switch per bit it forwards, picojoules",
          .min = 0, .max = 1e6, .required = true},
    Field{.key = "switch_source", .type = T::text, .doc = "where the switch figure comes from", .required = true},
};

constexpr std::array kGpuPower{
    Field{.key = "gpu", .type = T::name, .doc = "a GPU name of `configs/gpus/`", .required = true},
    Field{.key = "idle_w", .type = T::number, .doc = "watts drawn idle with a CUDA context", .min = 0, .max = 1e5,
          .required = true},
    Field{.key = "peak_w", .type = T::number, .doc = "watts at full utilisation (TDP), at least `idle_w`",
          .min = 0, .max = 1e5, .required = true},
    Field{.key = "source", .type = T::text, .doc = "where the figures come from", .required = true},
};

}  // namespace

std::span<const FieldSection> search_field_sections() {
  static const std::array sections{
      FieldSection{"search", "", kSearch},
      FieldSection{"search-choices", "/choices", kChoices},
      FieldSection{"search-targets", "/targets", kTargets},
      FieldSection{"search-rate", "/rate", kRate},
      FieldSection{"prices", "", kPrices},
      FieldSection{"price-gpu", "/gpus/0", kGpuPrice},
      FieldSection{"price-port", "/ports/0", kPortPrice},
      FieldSection{"energy", "", kEnergy},
      FieldSection{"energy-gpu", "/gpus/0", kGpuPower},
  };
  return sections;
}

}  // namespace lynxsim::scenario
