// JSON form of a Platform (exact round trip), used to send platforms between processes and to record results.
#pragma once

#include "platforms/platform.hpp"

#include <nlohmann/json.hpp>

namespace pipesim {

/// {"processors": [{"name", "speed", "failure_probability", "nic_in", "nic_out", "mtbf"}...], "in": ..., "out": ...,
///  "bandwidth": [[...]], "latency": [[...]], "xml_file": ...}. Matrices are nodes() x nodes() in node order
/// (processors, P_in, P_out), row = source. JSON has no infinity: an infinite value is written as the string "inf".
/// Doubles are written with the shortest representation that reads back to the same value.
/// With `links` false the two matrices are left out (they travel another way, see load_xml_platform).
nlohmann::json platform_to_json(const Platform& platform, bool links = true);
/// Inverse of platform_to_json; malformed input is an InputError "platform JSON: ...". With `links` false the
/// matrices are not read and every pair keeps the constructor's values (b = 1, c = 0).
Platform platform_from_json(const nlohmann::json& json, bool links = true);

/// nlohmann ADL hooks (so a Platform can sit inside a larger JSON document).
void to_json(nlohmann::json& json, const Platform& platform);
void from_json(const nlohmann::json& json, Platform& platform);

} // namespace pipesim
