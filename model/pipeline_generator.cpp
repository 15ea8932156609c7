// Seeded random pipelines: w_1..w_n then delta_0..delta_n, in that order.
#include "model/pipeline_generator.hpp"

#include "base/input_error.hpp"

#include <fmt/format.h>

namespace pipesim {

Pipeline generate_pipeline(int n, const Range& w, const Range& delta, std::uint64_t seed)
{
  if (n < 1) throw InputError(fmt::format("generate_pipeline: n = {} but a pipeline needs at least one stage", n));
  if (!w.well_formed() || w.lowest() < 0)
    throw InputError(fmt::format("generate_pipeline: w range {} must be well formed and >= 0", w.to_string()));
  if (!delta.well_formed() || delta.lowest() < 0)
    throw InputError(fmt::format("generate_pipeline: delta range {} must be well formed and >= 0", delta.to_string()));
  Rng rng(seed);
  Pipeline pipeline;
  pipeline.w.reserve(static_cast<std::size_t>(n));
  pipeline.delta.reserve(static_cast<std::size_t>(n) + 1);
  for (int i = 1; i <= n; ++i)
    pipeline.w.push_back(w.draw(rng));
  for (int i = 0; i <= n; ++i)
    pipeline.delta.push_back(delta.draw(rng));
  return pipeline;
}

} // namespace pipesim
