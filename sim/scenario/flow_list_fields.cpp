// The key tables of a flow-list file (field_table.hpp).

#include <array>

#include "sim/scenario/flow_list_fields.hpp"

#include "sim/net/scheduling.hpp"

#pragma GCC diagnostic ignored "-Wmissing-field-initializers"

namespace lynxsim::scenario {
namespace {

using T = FieldType;
constexpr double kMaxFlowClass = 1e6;

constexpr std::array kFlowList{
    Field{.key = "flows", .doc = "array of flows (below), simulated in list order", .required = true},
};

constexpr std::array kFlow{
    Field{.key = "src", .type = T::name, .doc = "sending host", .required = true},
    Field{.key = "dst", .type = T::name, .doc = "receiving host", .required = true},
    Field{.key = "size", .type = T::size, .doc = "bytes to send", .required = true},
    Field{.key = "start", .type = T::duration, .doc = "when the flow starts", .default_json = "\"0s\"", .min = 0},
    Field{.key = "class", .type = T::integer, .doc = "priority class (0 = highest)", .default_json = "0",
          .min = 0, .max = kMaxFlowClass},
    Field{.key = "weight", .type = T::number, .doc = "share of a link against flows of its class",
          .default_json = "1", .min = net::kMinWeight, .max = net::kMaxWeight},
    Field{.key = "label", .type = T::text, .doc = "printed with the flow's result", .default_json = "\"\""},
};

}  // namespace

std::span<const FieldSection> flow_list_field_sections() {
  static const std::array sections{
      FieldSection{"flow-list", "", kFlowList},
      FieldSection{"flow", "/flows/0", kFlow},
  };
  return sections;
}

}  // namespace lynxsim::scenario
