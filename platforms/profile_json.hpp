// JSON form of a platform's profiles: {"hosts": [...], "links": [...], "pairs": [...], "routes": [...]}, each profile
// as {"points": [[date, value], ...], "period": T, "source": "..."} (exact round trip).
#pragma once

#include "platforms/profile.hpp"

#include <nlohmann/json.hpp>

namespace pipesim {

nlohmann::json profiles_to_json(const PlatformProfiles& profiles);
/// Inverse of profiles_to_json; malformed input is an InputError "platform JSON: 'profiles': ...".
PlatformProfiles profiles_from_json(const nlohmann::json& json);

} // namespace pipesim
