#pragma once
// Named model cards, GPU profiles and serving-engine profiles become part of the scenario document
// before `--set` overrides apply, as named network presets do (network_preset.hpp), so an override
// can reach into a card ("model.num_layers=40", "prefill.gpu.hbm_capacity.value=40GB",
// "serving.engine.step_overhead.value=1ms"). The expanded object is the card file's object with the
// defaults of its top-level table filled in and "preset": <name> added (kept in the resolved
// scenario; the card readers accept it and ignore it). The expanded places are /model, the "gpu" of
// every prefill and decode group, and /serving/engine (its default engine when absent).
//
// A name that is not a loadable card (unknown, unsafe, or a card file with problems) is left as
// written, so the scenario reader reports it at its key exactly as before.

#include <filesystem>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "sim/scenario/data_paths.hpp"

namespace lynxsim::scenario {

enum class CardKind { model, gpu, engine };

// A card name is letters, digits, '-', '_' and '.', not starting with '.'.
bool plain_card_name(const std::string& name);

// The expanded object of card `name` of `kind`, or nullopt when no valid card has that name.
std::optional<nlohmann::json> load_card_preset(CardKind kind, const std::string& name,
                                               const DataPaths& data);

// Replaces every card name of `document` that names a valid card with its expanded object.
void expand_card_presets(nlohmann::json& document, const DataPaths& data);

}  // namespace lynxsim::scenario
