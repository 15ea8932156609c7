// Named pipeline generator ranges reproducing the random applications of the papers (br07 §5, hedpm §5, bbr10 §7).
#pragma once

#include "base/random.hpp"

#include <string>
#include <string_view>
#include <vector>

namespace pipesim {

/// A named pair of ranges for generate_pipeline: w_i (stage work) and delta_i (data sizes). The number of stages n
/// is not part of a preset (the papers vary it; docs/generators.md lists the values they used).
struct PipelinePreset {
  std::string_view name;
  std::string_view source; // paper, section and the sentence implemented
  Range w;
  Range delta;
};

/// Every preset, in a fixed order: br07-exp1..4, bbr10-table1, bbr10-tables23, hedpm, hedpm-5.2-hom, hedpm-5.2-het.
const std::vector<PipelinePreset>& pipeline_presets();
/// The preset called `name`, or nullptr. Complexity: O(presets), a linear search of a dozen entries.
const PipelinePreset* find_pipeline_preset(std::string_view name);
/// "br07-exp1, br07-exp2, ..." for error messages.
std::string pipeline_preset_names();

} // namespace pipesim
