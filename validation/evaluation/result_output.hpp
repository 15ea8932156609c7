// What the result commands print, and the JSON half of the one policy for numbers (docs/reports.md, "Tables, CSV
// and numbers"): tables and CSV write a non-finite number "inf", "-inf" or "nan" (base/table.hpp, format_number),
// JSON, which has no such numbers, writes null.
#pragma once

#include "base/enum_names.hpp"

#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>

namespace pipesim {

/// A result printed for a person (aligned tables) or for a program (JSON).
enum class ResultFormat { table, json };
PIPESIM_ENUM_NAMES(ResultFormat, {table, "table"}, {json, "json"});

/// x, or null when x is infinite or NaN.
nlohmann::json json_number(double x);
/// *x, or null when there is none or it is infinite or NaN.
nlohmann::json json_number(std::optional<double> x);

/// Determinism (docs/reports.md): every value of an output that may differ between two runs with the same inputs and
/// seeds (wall-clock seconds, dates) sits under a key named "timing" in JSON (an object, at any depth) and in a CSV
/// column named "timing.<name>"; everything else is identical byte for byte from one run to the next.
inline constexpr const char* timing_key = "timing";
/// The document without its "timing" members, at any depth.
nlohmann::json without_timing(nlohmann::json j);
/// Whether a CSV column is one of those ("timing.<name>").
bool is_timing_column(const std::string& column);

} // namespace pipesim
