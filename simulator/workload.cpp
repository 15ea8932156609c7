// The per-data-set amounts of a run (workload.hpp).
#include "simulator/workload.hpp"

#include "base/input_error.hpp"

#include <cmath>
#include <fmt/format.h>

namespace pipesim {

IntervalAmounts::IntervalAmounts(const Workload& workload, const Mapping& mapping, int n, double size_scale)
    : workload_(workload), mapping_(mapping), n_(n), size_scale_(size_scale),
      constant_(workload.same_for_every_dataset())
{
  if (!constant_) return;
  for (int j = 0; j < mapping.m(); ++j)
    work_.push_back(interval_work(j, 0));
  for (int j = 0; j <= mapping.m(); ++j)
    bytes_.push_back(interval_bytes(j, 0));
}

double IntervalAmounts::interval_work(int j, int k) const
{
  const Interval& in = mapping_.interval(j);
  double sum         = 0; // in stage order, as Pipeline::work(first, last): the same bits
  for (int i = in.first; i <= in.last; ++i)
    sum += workload_.work(i, k);
  return sum;
}

std::uint64_t IntervalAmounts::interval_bytes(int j, int k) const
{
  const int stage    = j < mapping_.m() ? mapping_.interval(j).first - 1 : n_;
  const double bytes = workload_.size(stage, k) * size_scale_;
  if (!(bytes < std::ldexp(1.0, 63))) // a drawn size far in a heavy tail (the means are checked before the run)
    throw InputError::keyed("pipeline.variability", // the law of delta_stage, at the section or its size law
                            fmt::format("delta_{} of data set {} = {} bytes (x {} in the exact network mode): SimGrid "
                                        "holds at most 2^63 - 1 bytes per message; use larger units or a law with a "
                                        "lighter tail",
                                        stage, k, workload_.size(stage, k), size_scale_));
  return static_cast<std::uint64_t>(std::llround(bytes));
}

} // namespace pipesim
