#pragma once
// The transfer methods built on the KV formats of kv_format.hpp, for method_spec.cpp: their names
// (a format's name: family `scaled`; lynx-<lynx_name>-A+B[+C...]: a Lynx split of the format's
// code), their presets in `lynxsim list` and their consistency rules.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "sim/quant/method_spec.hpp"

namespace lynxsim::quant {

// The method of a format name or of a Lynx split of a format's code; nullopt for any other name.
std::optional<MethodSpec> format_method_from_name(std::string_view name);

// The format presets `lynxsim list` shows: every format, and the Lynx splits worth comparing.
std::vector<std::string> format_preset_names();

// Appends the problems of a method that has a format (or whose family needs one).
void check_format_method(const MethodSpec& method, std::vector<std::string>& problems);

// The format's part of MethodSpec::canonical().
std::string format_canonical(const MethodSpec& method);

}  // namespace lynxsim::quant
