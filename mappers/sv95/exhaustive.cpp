// sv95.exhaustive: every clustering, instance count and processors per instance (sv95 §2.2).
#include "mappers/sv95/exhaustive.hpp"

#include "mappers/sv95/tables.hpp"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>

namespace pipesim {

namespace {
const MapperRegistration sv95_exhaustive_registration{[] { return std::make_unique<Sv95Exhaustive>(); }};

constexpr double max_candidates = 2e7;

/// Depth-first enumeration; a module's term f_j / r_j is known once the next module's p is chosen.
class ClusteringSearch {
public:
  ClusteringSearch(const TaskChain& chain, int P, const MapperOptions& options)
      : chain_(chain), P_(P), deadline_(options.deadline())
  {
  }
  void run() { choose(1, 0, 0.0); }
  const std::vector<Sv95Module>& best() const { return best_; }
  bool timed_out() const { return timed_out_; }
  double leaves() const { return leaves_; }

private:
  double term(std::size_t j, int p_next) const
  {
    const Sv95Module& m = path_[j];
    int p_prev          = j > 0 ? path_[j - 1].p : 0;
    return module_response(chain_, m.first, m.last, p_prev, m.p, p_next) / m.r;
  }

  void leaf(int used, double partial)
  {
    leaves_ += 1;
    if (static_cast<long long>(leaves_) % 4096 == 0) timed_out_ = deadline_.expired();
    double period = std::max(partial, term(path_.size() - 1, 0));
    if (std::isinf(period)) return; // a table does not cover these processors: not a mapping
    if (best_.empty() || period < best_period_ || (period == best_period_ && used < best_used_)) {
      best_        = path_;
      best_period_ = period;
      best_used_   = used;
    }
  }

  void choose(int next, int used, double partial)
  {
    if (timed_out_) return;
    if (next > chain_.k()) {
      leaf(used, partial);
      return;
    }
    for (int b = next; b <= chain_.k(); ++b) {
      int p_min = module_p_min(chain_, next, b);
      int r_max = module_replicable(chain_, next, b) ? P_ : 1;
      for (int r = 1; r <= r_max && used + r * p_min <= P_; ++r)
        for (int p = p_min; used + r * p <= P_; ++p) {
          double known = path_.empty() ? partial : std::max(partial, term(path_.size() - 1, p));
          if (not best_.empty() && known > best_period_) continue;
          path_.push_back({next, b, r, p});
          choose(b + 1, used + r * p, known);
          path_.pop_back();
        }
    }
  }

  const TaskChain& chain_;
  int P_;
  Deadline deadline_;
  std::vector<Sv95Module> path_;
  std::vector<Sv95Module> best_;
  double best_period_ = 0;
  int best_used_      = 0;
  double leaves_      = 0;
  bool timed_out_     = false;
};
} // namespace

double sv95_exhaustive_candidates(const TaskChain& chain, int P)
{
  // ways[b][U]: clusterings of t_1..t_b with an (r, p) per module using exactly U processors
  int k = chain.k();
  std::vector<std::vector<double>> ways(static_cast<std::size_t>(k) + 1, std::vector<double>(P + 1, 0.0));
  ways[0][0] = 1;
  for (int b = 1; b <= k; ++b)
    for (int a = 1; a <= b; ++a) {
      int p_min = module_p_min(chain, a, b);
      int r_max = module_replicable(chain, a, b) ? P : 1;
      for (int r = 1; r <= r_max; ++r)
        for (int p = p_min; r * p <= P; ++p)
          for (int U = r * p; U <= P; ++U)
            ways[b][U] += ways[a - 1][U - r * p];
    }
  double total = 0;
  for (double w : ways[k])
    total += w;
  return total;
}

MapperInfo Sv95Exhaustive::info() const
{
  return sv95_info("sv95.exhaustive",
                   "sv95 §2.2 by enumeration of every clustering, instance count and processors per instance: the "
                   "reference on tiny instances",
                   Paper::sv95, MapperFamily::exhaustive, true, "O(C k) for C candidates (at most 2e7)");
}

std::optional<std::string> Sv95Exhaustive::instance_refusal(const Problem& problem) const
{
  if (auto reason = sv95_refusal(problem)) return reason;
  double candidates = sv95_exhaustive_candidates(*problem.task_chain, problem.platform.p());
  if (candidates > max_candidates)
    return fmt::format("{:.3g} candidate mappings (k = {}, P = {}), more than {:.0g}", candidates,
                       problem.task_chain->k(), problem.platform.p(), max_candidates);
  return std::nullopt;
}

MapperResult Sv95Exhaustive::map(const Problem& problem, const MapperOptions& options) const
{
  const TaskChain& chain = *problem.task_chain;
  ClusteringSearch search(chain, problem.platform.p(), options);
  search.run();
  if (search.best().empty()) {
    MapperResult result = sv95_infeasible();
    if (search.timed_out()) result.status = SolveStatus::time_limit;
    return result;
  }
  MapperResult result =
      sv95_result(chain, search.best(), search.timed_out() ? SolveStatus::time_limit : SolveStatus::optimal);
  result.statistics["leaves"] = search.leaves();
  return result;
}

} // namespace pipesim
