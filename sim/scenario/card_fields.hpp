#pragma once
// The key tables of the cards a scenario names or inlines (field_table.hpp): a model card
// (models/*.json, docs/models.md) with its optional attention and moe sections, a hardware profile
// (configs/gpus/*.json) and a serving-engine profile (configs/engines/*.json). The readers
// (card_reader.hpp) read every key through these Fields; `lynxsim keys` prints them and the key
// tables of docs/models.md and docs/scenario.md are rendered from them.
//
// Every key of a hardware or engine profile except schema_version, name, description and comment
// is a sourced value, {"value": v, "source": "..."} (the "profile-value" table): v is read with
// the key's own Field, and each constant names where it comes from.

#include <span>

#include "sim/scenario/field_table.hpp"

namespace lynxsim::scenario {

// model-card, model-attention, model-attention-linear, model-moe, gpu-profile, engine-profile and
// profile-value, in the order the docs show them.
std::span<const FieldSection> card_field_sections();

}  // namespace lynxsim::scenario
