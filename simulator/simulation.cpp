// Measurement helpers shared by every simulation model.
#include "simulator/simulation.hpp"

#include "base/input_error.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <stdexcept>

namespace pipesim {

double measured_period(const std::vector<double>& output_times, int warmup, int cooldown, int window)
{
  auto n = static_cast<int>(output_times.size());
  if (cooldown > 0 && n - cooldown - std::max(warmup, 1) >= 1) n -= cooldown;
  if (n < 2) return 0;                       // one data set has no period
  if (warmup < 1 || warmup >= n) warmup = 1; // with K = 0 the first output (t_1) is the reference
  if (window > 1) {                          // whole rounds of L data sets: t_K and t_N at the same place of a round
    int end   = n / window * window;
    int start = (warmup + window - 1) / window * window;
    if (end - start < window) start = end - window; // too short a run for the warm-up: the last whole round
    if (start >= 1) {
      warmup = start;
      n      = end;
    } // fewer than L + 1 outputs: no whole round, the plain formula
  }
  // DESIGN.md §3.7: (t_N - t_K) / (N - K) with t numbered from 1
  return (output_times[static_cast<std::size_t>(n - 1)] - output_times[static_cast<std::size_t>(warmup - 1)]) /
         (n - warmup);
}

bool measured_over_whole_rounds(int outputs, int cooldown, int window)
{
  if (window <= 1) return true;
  int n = outputs;
  if (cooldown > 0 && n - cooldown - 1 >= 1) n -= cooldown; // as measured_period (with K >= 1)
  return n / window * window - window >= 1;
}

void refuse_clock_overflow(int datasets, double one_dataset, const std::string& what, const std::string& fix)
{
  if (one_dataset * (datasets + 1.0) < 1e307) return; // false for NaN and inf too
  throw InputError(fmt::format("simulation: {} data sets of up to {:g} s each {} may end past 1e307 s, beyond what "
                               "SimGrid's clock (a double) can date; {}",
                               datasets, one_dataset, what, fix));
}

} // namespace pipesim
