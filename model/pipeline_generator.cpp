// Seeded random pipelines: w_1..w_n then delta_0..delta_n, in that order.
#include "model/pipeline_generator.hpp"

#include "base/input_error.hpp"

#include <fmt/format.h>

namespace pipesim {

Pipeline generate_pipeline(int n, const Range& w, const Range& delta, std::uint64_t seed)
{
  if (n < 1) throw InputError::keyed("pipeline.generate.n", n, "expected at least one stage");
  if (!w.well_formed() || w.lowest() < 0)
    throw InputError::keyed("pipeline.generate.w", w.to_string(), "expected a well formed range >= 0");
  if (!delta.well_formed() || delta.lowest() < 0)
    throw InputError::keyed("pipeline.generate.delta", delta.to_string(), "expected a well formed range >= 0");
  Rng rng(seed);
  Pipeline pipeline;
  pipeline.w.reserve(static_cast<std::size_t>(n));
  pipeline.delta.reserve(static_cast<std::size_t>(n) + 1);
  for (int i = 1; i <= n; ++i)
    pipeline.w.push_back(w.draw(rng, "pipeline.generate.w"));
  for (int i = 0; i <= n; ++i)
    pipeline.delta.push_back(delta.draw(rng, "pipeline.generate.delta"));
  return pipeline;
}

} // namespace pipesim
