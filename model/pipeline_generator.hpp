// Random pipelines from a seed (br07 §5, hedpm §5, bbr10 §7 instances): w_i and delta_i drawn from ranges.
#pragma once

#include "base/random.hpp"
#include "model/pipeline.hpp"

#include <cstdint>

namespace pipesim {

/// Draws a pipeline of n stages with pipesim::Rng(seed), in this fixed order: w_1, ..., w_n, then
/// delta_0, ..., delta_n, one Range::draw each. A constant range (lo == hi) consumes no random number, so
/// making w constant changes the delta values drawn; a normal range consumes a variable count (redraws). Same seed
/// and ranges give the same pipeline everywhere. Named ranges from the papers are in model/pipeline_presets.hpp.
/// Throws InputError when n < 1, a range is ill-formed (Range::well_formed) or allows negative values.
/// Complexity: O(n) draws (a normal range redraws a negative value: expected O(1) draws each).
Pipeline generate_pipeline(int n, const Range& w, const Range& delta, std::uint64_t seed);

} // namespace pipesim
