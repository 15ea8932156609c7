// H1b-GRIL (br07 §4.1): random interval lengths in [1, 2L-1] on random free processors.
#include "mappers/br07/h1b_gril.hpp"

#include "base/random.hpp"

#include <algorithm>
#include <numeric>

namespace pipesim {

namespace {
const MapperRegistration br07_h1b_gril_registration{[] { return std::make_unique<Br07H1bGril>(); }};
} // namespace

IntervalAssignment br07_h1b_gril(const Problem& problem, std::uint64_t seed)
{
  Rng rng(seed);
  int n      = problem.pipeline.n();
  int length = (n + problem.platform.p() - 1) / problem.platform.p(); // L = ceil(n/p)
  IntervalAssignment result;
  std::vector<int> free(static_cast<std::size_t>(problem.platform.p()));
  std::iota(free.begin(), free.end(), 0);
  for (int first = 1; first <= n;) {
    // Uniform in [1, 2L-1] (mean L); with L = 1 nothing is drawn, so H1b follows H1a's draws exactly.
    auto drawn = length == 1 ? 1 : static_cast<int>(rng.integer(1, 2 * length - 1));
    int last   = free.size() == 1 ? n : std::min(n, first + drawn - 1); // the last free processor takes the rest
    auto pick  = static_cast<std::size_t>(rng.integer(0, static_cast<long long>(free.size()) - 1));
    result.intervals.emplace_back(first, last);
    result.alloc.push_back(free[pick]);
    free.erase(free.begin() + static_cast<std::ptrdiff_t>(pick));
    first = last + 1;
  }
  return result;
}

MapperInfo Br07H1bGril::info() const
{
  return br07_heuristic_info(
      "br07.h1b-gril", "br07 §4.1 H1b-GRIL: random interval lengths in [1, 2L-1], random free processor per interval",
      "O(n + p^2)");
}

IntervalAssignment Br07H1bGril::assign(const Problem& problem, const MapperOptions& options) const
{
  return br07_h1b_gril(problem, options.seed);
}

} // namespace pipesim
