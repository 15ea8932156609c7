// Windowed throughput of a run's output times.
#include "simulator/throughput_series.hpp"

#include <algorithm>
#include <cstddef>

namespace pipesim {

std::vector<ThroughputWindow> throughput_series(const std::vector<double>& output_times, int window)
{
  std::vector<ThroughputWindow> series;
  if (window < 1) return series;
  const auto w = static_cast<std::size_t>(window);
  for (std::size_t first = 0; first + w < output_times.size(); first += w) {
    ThroughputWindow x;
    x.from   = static_cast<int>(first) + 1;
    x.to     = static_cast<int>(first + w) + 1;
    x.start  = output_times[first];
    x.end    = output_times[first + w];
    x.period = (x.end - x.start) / window;
    series.push_back(x);
  }
  return series;
}

int default_throughput_window(int datasets, int round)
{
  round = std::max(round, 1);
  return std::max(1, (datasets / 20 + round - 1) / round) * round;
}

} // namespace pipesim
