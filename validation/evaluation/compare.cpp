// Relative error between an analytic and a measured figure.
#include "validation/evaluation/compare.hpp"

#include <cmath>

namespace pipesim {

double relative_error(double measured, double reference)
{
  if (reference == 0) return measured == 0 ? 0 : INFINITY;
  return std::fabs(measured - reference) / std::fabs(reference);
}

} // namespace pipesim
