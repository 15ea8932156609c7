// sv95.exact: search on the period with the fewest-processors dynamic program as decision procedure.
#include "mappers/sv95/exact.hpp"

#include "mappers/sv95/decision.hpp"
#include "mappers/sv95/greedy.hpp"
#include "mappers/sv95/tables.hpp"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <limits>

namespace pipesim {

namespace {
const MapperRegistration sv95_exact_registration{[] { return std::make_unique<Sv95Exact>(); }};

constexpr int max_P = 1024;

} // namespace

MapperInfo Sv95Exact::info() const
{
  return sv95_info("sv95.exact",
                   "optimal mapping of sv95's problem by a search on the period with a fewest-processors dynamic "
                   "program as the decision",
                   Paper::pipesim, MapperFamily::period_search, true,
                   "O(k^2 P^2 log F) per decision, about 20 to 30 decisions at P = 256");
}

std::optional<std::string> Sv95Exact::instance_refusal(const Problem& problem) const
{
  if (auto reason = sv95_refusal(problem)) return reason;
  if (problem.platform.p() > max_P)
    return fmt::format("P = {} processors, more than {} (tables of P^2 entries per pair of tasks)",
                       problem.platform.p(), max_P);
  return std::nullopt;
}

namespace {
/// A period no mapping beats: the module holding t_i has a term f / r >= exec / r, with r p within the processors
/// the other tasks leave.
double lower_bound(const Sv95Tables& t)
{
  double lo = 0;
  for (int i = 1; i <= t.k(); ++i) {
    double lb = std::numeric_limits<double>::infinity();
    for (int a = 1; a <= i; ++a)
      for (int b = i; b <= t.k(); ++b) {
        int room = t.P() - t.min_before(a) - t.min_after(b);
        for (int p = t.p_min(a, b); p <= room; ++p)
          lb = std::min(lb, t.exec(a, b, p) / (t.replicable(a, b) ? room / p : 1));
      }
    lo = std::max(lo, lb);
  }
  return lo;
}
} // namespace

MapperResult Sv95Exact::map(const Problem& problem, const MapperOptions& options) const
{
  const TaskChain& chain = *problem.task_chain;
  Sv95Tables tables(chain, problem.platform.p());
  if (tables.min_before(chain.k() + 1) > tables.P()) return sv95_infeasible();
  const Deadline deadline      = options.deadline();
  std::vector<Sv95Module> best = *sv95_greedy(chain, tables.P(), Sv95GreedyRule::neighbours);
  double hi                    = sv95_evaluate(chain, best).period;
  double lo                    = std::min(lower_bound(tables), hi);
  bool minimal                 = false; // `best` has the fewest processors among mappings of period hi
  int decisions                = 0;
  Sv95Decision decision(tables);
  auto decide = [&](double T) {
    ++decisions;
    if (decision.solve(T) > tables.P()) return false;
    best    = decision.modules(T);
    hi      = sv95_evaluate(chain, best).period;
    minimal = true;
    return true;
  };
  if (std::isinf(hi) && not decide(std::numeric_limits<double>::max())) return sv95_infeasible(); // no finite f
  bool timed_out = false;
  bool probe     = true; // next: the double just below hi, which proves hi optimal when infeasible
  while (lo < hi && not(timed_out = deadline.expired())) {
    double T;
    if (probe || hi - lo <= 1e-7 * hi)
      T = std::nextafter(hi, 0.0);
    else if (lo > 0 && hi > 16 * lo)
      T = std::sqrt(lo) * std::sqrt(hi);
    else
      T = lo + (hi - lo) / 2;
    bool feasible = decide(T);
    if (not feasible) lo = std::nextafter(T, std::numeric_limits<double>::infinity());
    probe = feasible && not probe; // after a feasible bisection step, probe; after a probe, bisect
  }
  if (not minimal && not timed_out && std::isfinite(hi)) decide(hi);
  MapperResult result            = sv95_result(chain, best, timed_out ? SolveStatus::time_limit : SolveStatus::optimal);
  result.statistics["decisions"] = decisions;
  return result;
}

} // namespace pipesim
