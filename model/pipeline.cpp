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
  if (w.empty()) throw InputError("pipeline: at least one stage is needed (w is empty)");
  if (delta.size() != w.size() + 1)
    throw InputError(fmt::format("pipeline: delta needs n+1 = {} values, got {}", w.size() + 1, delta.size()));
  for (std::size_t i = 0; i < w.size(); ++i)
    if (!(w[i] >= 0) || !std::isfinite(w[i]))
      throw InputError(fmt::format("pipeline: w_{} = {} must be a finite number >= 0", i + 1, w[i]));
  for (std::size_t i = 0; i < delta.size(); ++i)
    if (!(delta[i] >= 0) || !std::isfinite(delta[i]))
      throw InputError(fmt::format("pipeline: delta_{} = {} must be a finite number >= 0", i, delta[i]));
}

} // namespace pipesim
