// Measurement helpers shared by every simulation model.
#include "simulator/simulation.hpp"

#include <algorithm>
#include <stdexcept>

namespace pipesim {

double measured_period(const std::vector<double>& output_times, int warmup, int cooldown)
{
  auto n = static_cast<int>(output_times.size());
  if (cooldown > 0 && n - cooldown - std::max(warmup, 1) >= 1) n -= cooldown;
  if (n < 2) return 0;                       // one data set has no period
  if (warmup < 1 || warmup >= n) warmup = 1; // with K = 0 the first output (t_1) is the reference
  // DESIGN.md §3.7: (t_N - t_K) / (N - K) with t numbered from 1
  return (output_times[static_cast<std::size_t>(n - 1)] - output_times[static_cast<std::size_t>(warmup - 1)]) /
         (n - warmup);
}

} // namespace pipesim
