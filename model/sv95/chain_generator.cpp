// Random task chains from a seed (sv95 §5's polynomial cost model).
#include "model/sv95/chain_generator.hpp"

#include "base/input_error.hpp"

#include <fmt/format.h>

namespace pipesim {

namespace {
void check_range(const Range& range, const char* what)
{
  if (not range.well_formed() || range.lowest() < 0)
    throw InputError::keyed(fmt::format("task_chain.generate.{}", what), range.to_string(),
                            "expected a well formed range >= 0");
}
} // namespace

TaskChainRanges sv95_fitted_ranges()
{
  TaskChainRanges ranges;
  ranges.exec  = {Range::uniform(0.001, 0.01), Range::uniform(0.1, 2), Range::uniform(0, 1e-4)};
  ranges.icom  = {Range::uniform(0, 0.005), Range::uniform(0, 0.1), Range::uniform(0, 1e-4)};
  ranges.ecom  = {Range::uniform(0, 0.005), Range::uniform(0, 0.1), Range::uniform(0, 0.1), Range::uniform(0, 1e-4),
                  Range::uniform(0, 1e-4)};
  ranges.p_min = Range::uniform(1, 4, true);
  return ranges;
}

TaskChain generate_task_chain(int k, const TaskChainRanges& ranges, std::uint64_t seed)
{
  if (k < 1) throw InputError::keyed("task_chain.generate.k", k, "expected at least 1 task");
  for (const Range& r : ranges.exec)
    check_range(r, "exec");
  for (const Range& r : ranges.icom)
    check_range(r, "icom");
  for (const Range& r : ranges.ecom)
    check_range(r, "ecom");
  check_range(ranges.p_min, "p_min");
  Rng rng(seed);
  TaskChain chain;
  for (int i = 1; i <= k; ++i) {
    Task task;
    task.name = fmt::format("t{}", i);
    for (std::size_t c = 0; c < 3; ++c)
      task.exec.c[c] = ranges.exec[c].draw(rng);
    task.p_min      = std::max(1, static_cast<int>(ranges.p_min.draw(rng)));
    task.replicable = rng.uniform01() < ranges.replicable;
    chain.tasks.push_back(task);
  }
  for (int i = 1; i < k; ++i) {
    CostFunction icom;
    for (std::size_t c = 0; c < 3; ++c)
      icom.c[c] = ranges.icom[c].draw(rng);
    CommFunction ecom;
    for (std::size_t c = 0; c < 5; ++c)
      ecom.c[c] = ranges.ecom[c].draw(rng);
    chain.icom.push_back(icom);
    chain.ecom.push_back(ecom);
  }
  return chain;
}

} // namespace pipesim
