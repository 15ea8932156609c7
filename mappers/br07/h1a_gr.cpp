// H1a-GR (br07 §4.1): random free processor for each interval of the L-cut.
#include "mappers/br07/h1a_gr.hpp"

#include "base/random.hpp"

#include <numeric>

namespace pipesim {

namespace {
const MapperRegistration br07_h1a_gr_registration{[] { return std::make_unique<Br07H1aGr>(); }};
} // namespace

IntervalAssignment br07_h1a_gr(const Problem& problem, std::uint64_t seed)
{
  Rng rng(seed);
  IntervalAssignment result;
  result.intervals = br07_greedy_intervals(problem.pipeline.n(), problem.platform.p());
  std::vector<int> free(static_cast<std::size_t>(problem.platform.p()));
  std::iota(free.begin(), free.end(), 0);
  for (std::size_t j = 0; j < result.intervals.size(); ++j) {
    auto pick = static_cast<std::size_t>(rng.integer(0, static_cast<long long>(free.size()) - 1));
    result.alloc.push_back(free[pick]);
    free.erase(free.begin() + static_cast<std::ptrdiff_t>(pick));
  }
  return result;
}

MapperInfo Br07H1aGr::info() const
{
  return br07_heuristic_info("br07.h1a-gr",
                             "br07 §4.1 H1a-GR: L = ceil(n/p) stages per interval, random free processor per interval",
                             "O(n + p^2)");
}

IntervalAssignment Br07H1aGr::assign(const Problem& problem, const MapperOptions& options) const
{
  return br07_h1a_gr(problem, options.seed);
}

} // namespace pipesim
