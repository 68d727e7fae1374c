#pragma once
// A price table file (data/prices.json; keys: search_fields.cpp, docs/search.md): US dollars per
// GPU-hour by GPU name and per port-hour by port rate, each row with its source and date.
// Every problem is thrown as one ScenarioError of the file (exit 2), with its JSON pointer: a
// duplicated GPU, ports not in strictly ascending rate order, an empty list.

#include <filesystem>

#include <nlohmann/json.hpp>

#include "sim/plan/deployment_cost.hpp"

namespace lynxsim::scenario {

plan::PriceTable load_price_table(const std::filesystem::path& file);
plan::PriceTable parse_price_table(const nlohmann::json& document, const std::string& file);

}  // namespace lynxsim::scenario
