// Named platform generator settings reproducing the random platforms of the papers (br07 §5, hedpm §5, bbr10 §7).
#pragma once

#include "platforms/generate.hpp"

#include <string>
#include <string_view>
#include <vector>

namespace pipesim {

/// A named bundle of generator ranges. `spec` holds the class and every range; its p, seed and io names are
/// defaults that the user always sets (the papers vary p; docs/generators.md lists the values they used).
struct PlatformPreset {
  std::string_view name;
  std::string_view source; // paper, section and the sentence implemented
  PlatformGeneratorSpec spec;
};

/// Every preset, in a fixed order: br07, bbr10, bbr10-fast, hedpm, hedpm-5.2.
const std::vector<PlatformPreset>& platform_presets();
/// The preset called `name`, or nullptr.
const PlatformPreset* find_platform_preset(std::string_view name);
/// "br07, bbr10, ..." for error messages.
std::string platform_preset_names();

} // namespace pipesim
