// Wilson score interval for Monte Carlo survival rates.
#include "validation/evaluation/statistics.hpp"

#include "base/input_error.hpp"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>

namespace pipesim {

ProportionInterval wilson_interval(long long successes, long long trials, double z)
{
  if (trials < 0 || successes < 0 || successes > trials)
    throw InputError::keyed("simulation.runs", trials,
                            fmt::format("Wilson interval: {} successes out of this many trials (need 0 <= successes "
                                        "<= trials)",
                                        successes));
  if (!(z > 0) || !std::isfinite(z))
    throw InputError::keyed("simulation.runs", fmt::format("Wilson interval: z = {} must be > 0", z));
  if (trials == 0) return {0.0, 1.0};
  double n      = static_cast<double>(trials);
  double p      = static_cast<double>(successes) / n;
  double z2n    = z * z / n;
  double denom  = 1 + z2n;
  double center = (p + z2n / 2) / denom;
  double half   = z / denom * std::sqrt(p * (1 - p) / n + z2n / (4 * n));
  ProportionInterval out{std::max(0.0, center - half), std::min(1.0, center + half)};
  if (successes == 0) out.low = 0.0; // analytically exact; keeps rounding from leaving 1e-17
  if (successes == trials) out.high = 1.0;
  return out;
}

} // namespace pipesim
