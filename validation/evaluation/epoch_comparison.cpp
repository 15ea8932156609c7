// Windowed throughput against the per-epoch analytic period.
#include "validation/evaluation/epoch_comparison.hpp"

#include <algorithm>
#include <cmath>

namespace pipesim {

std::vector<EpochComparison> compare_series(const std::vector<Epoch>& series,
                                            const std::vector<ThroughputWindow>& windows,
                                            const std::vector<double>& output_times, double tolerance)
{
  std::vector<EpochComparison> out;
  for (const Epoch& epoch : series) {
    EpochComparison c;
    // data sets are numbered from 1: the first output at or after the epoch's start
    auto first_output = static_cast<int>(std::lower_bound(output_times.begin(), output_times.end(), epoch.start) -
                                         output_times.begin()) +
                        1;
    for (const ThroughputWindow& w : windows) {
      if (w.start < epoch.start || w.end > epoch.end) continue;
      ++c.windows;
      double error = std::abs(w.period - epoch.period) / epoch.period;
      bool matches = std::isfinite(epoch.period) && error <= tolerance;
      if (!c.transient && !matches) continue;
      if (!c.transient) c.transient = std::max(0, w.from - first_output);
      ++c.steady;
      c.max_error = std::max(c.max_error, error);
      if (!matches) ++c.mismatched;
    }
    out.push_back(c);
  }
  return out;
}

} // namespace pipesim
