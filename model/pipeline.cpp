// Pipeline helpers and validation.
#include "model/pipeline.hpp"

#include "base/input_error.hpp"

#include <cmath>
#include <fmt/format.h>

namespace pipesim {

double Pipeline::work(int first, int last) const
{
  double sum = 0;
  for (int i = first; i <= last; ++i)
    sum += work(i);
  return sum;
}

void Pipeline::validate() const
{
  if (w.empty()) throw InputError::keyed("pipeline.w", "expected at least one stage");
  if (delta.size() != w.size() + 1)
    throw InputError::keyed("pipeline.delta",
                            fmt::format("expected n+1 = {} values, got {}", w.size() + 1, delta.size()));
  for (std::size_t i = 0; i < w.size(); ++i) // pipeline.w[i] is w_{i+1}, pipeline.delta[i] is delta_i
    if (!(w[i] >= 0) || !std::isfinite(w[i]))
      throw InputError::keyed(fmt::format("pipeline.w[{}]", i), w[i], "expected a finite number >= 0");
  for (std::size_t i = 0; i < delta.size(); ++i)
    if (!(delta[i] >= 0) || !std::isfinite(delta[i]))
      throw InputError::keyed(fmt::format("pipeline.delta[{}]", i), delta[i], "expected a finite number >= 0");
}

} // namespace pipesim
