// What the result commands print, and the JSON half of the one policy for numbers (docs/reports.md, "Tables, CSV
// and numbers"): tables and CSV write a non-finite number "inf", "-inf" or "nan" (base/table.hpp, format_number),
// JSON, which has no such numbers, writes null.
#pragma once

#include "base/enum_names.hpp"

#include <nlohmann/json_fwd.hpp>
#include <optional>

namespace pipesim {

/// A result printed for a person (aligned tables) or for a program (JSON).
enum class ResultFormat { table, json };
PIPESIM_ENUM_NAMES(ResultFormat, {table, "table"}, {json, "json"});

/// x, or null when x is infinite or NaN.
nlohmann::json json_number(double x);
/// *x, or null when there is none or it is infinite or NaN.
nlohmann::json json_number(std::optional<double> x);

} // namespace pipesim
