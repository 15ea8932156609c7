// The stopping rule of `simulation.precision` and the period estimate of a run (stopping_rule.hpp).
#include "simulator/stopping_rule.hpp"

#include <algorithm>

namespace pipesim {

PrecisionRule::PrecisionRule(int first_check, int max_datasets, double precision, PeriodEstimateOptions options)
    : max_datasets_(max_datasets), precision_(precision), options_(options),
      next_check_(std::min(first_check, max_datasets))
{
}

bool PrecisionRule::enough(std::span<const double> output_times) const
{
  const auto n = static_cast<long long>(output_times.size());
  if (n >= max_datasets_) return true;
  if (n < next_check_) return false;
  const PeriodEstimate e = estimate_period(output_times, options_);
  if (e.ok && e.relative_half_width() <= precision_) return true;
  next_check_ = std::min<long long>(2 * n, max_datasets_);
  return false;
}

PeriodEstimate run_period_estimate(const std::vector<double>& output_times, int cooldown,
                                   const PeriodEstimateOptions& options)
{
  const auto kept = static_cast<std::ptrdiff_t>(output_times.size()) - std::max(0, cooldown);
  return estimate_period(
      std::span<const double>(output_times.data(), static_cast<std::size_t>(std::max<std::ptrdiff_t>(0, kept))),
      options);
}

} // namespace pipesim
