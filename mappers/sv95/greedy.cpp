// sv95 §4: greedy processor assignment with maximal replication, and the clustering merge/split of §4.2.
#include "mappers/sv95/greedy.hpp"

#include "mappers/sv95/tables.hpp"

#include <climits>
#include <cmath>
#include <numeric>

namespace pipesim {

namespace {
const MapperRegistration sv95_greedy_registration{
    [] { return std::make_unique<Sv95Greedy>(Sv95GreedyRule::neighbours); }};
const MapperRegistration sv95_greedy_slowest_registration{
    [] { return std::make_unique<Sv95Greedy>(Sv95GreedyRule::slowest); }};

int total(const Sv95Assignment& a) { return std::accumulate(a.q.begin(), a.q.end(), 0); }

double period_of(const TaskChain& chain, const Sv95Assignment& a)
{
  return sv95_evaluate(chain, sv95_triplets(chain, a)).period;
}

Sv95Assignment at_p_min(const TaskChain& chain, const std::vector<std::pair<int, int>>& clustering)
{
  Sv95Assignment a{clustering, {}};
  for (auto [first, last] : clustering)
    a.q.push_back(module_p_min(chain, first, last));
  return a;
}

/// §4.1 step 3: one more processor, to the slowest module or (neighbours) to the best of it and its neighbours.
void add_processor(const TaskChain& chain, Sv95Assignment& a, Sv95GreedyRule rule)
{
  int i = sv95_evaluate(chain, sv95_triplets(chain, a)).bottleneck;
  int m = static_cast<int>(a.q.size());
  std::vector<int> candidates{i};
  if (rule == Sv95GreedyRule::neighbours) {
    if (i > 0) candidates.push_back(i - 1);
    if (i + 1 < m) candidates.push_back(i + 1);
  }
  int best_j         = candidates.front();
  double best_period = 0;
  for (int j : candidates) {
    a.q[j] += 1;
    double period = period_of(chain, a);
    a.q[j] -= 1;
    if (j == candidates.front() || period < best_period) {
      best_j      = j;
      best_period = period;
    }
  }
  a.q[best_j] += 1;
}

/// §4.2: merge the adjacent pair (with the processors of both) that lowers the period most, while one does.
void merge_pass(const TaskChain& chain, Sv95Assignment& a)
{
  for (;;) {
    double current = period_of(chain, a);
    std::optional<Sv95Assignment> best;
    double best_period = current;
    for (std::size_t j = 0; j + 1 < a.q.size(); ++j) {
      Sv95Assignment merged = a;
      merged.modules[j]     = {a.modules[j].first, a.modules[j + 1].second};
      merged.q[j]           = a.q[j] + a.q[j + 1];
      merged.modules.erase(merged.modules.begin() + static_cast<std::ptrdiff_t>(j) + 1);
      merged.q.erase(merged.q.begin() + static_cast<std::ptrdiff_t>(j) + 1);
      if (merged.q[j] < module_p_min(chain, merged.modules[j].first, merged.modules[j].second)) continue;
      if (double period = period_of(chain, merged); period < best_period) {
        best        = std::move(merged);
        best_period = period;
      }
    }
    if (not best) return;
    a = std::move(*best);
  }
}

/// §4.2: split a module in two (every split point, every division of its processors) while that lowers the period.
void split_pass(const TaskChain& chain, Sv95Assignment& a)
{
  for (;;) {
    std::optional<Sv95Assignment> best;
    double best_period = period_of(chain, a);
    for (std::size_t j = 0; j < a.q.size(); ++j) {
      auto [first, last] = a.modules[j];
      for (int s = first; s < last; ++s) {
        int left_min  = module_p_min(chain, first, s);
        int right_min = module_p_min(chain, s + 1, last);
        for (int q1 = left_min; q1 <= a.q[j] - right_min; ++q1) {
          Sv95Assignment split = a;
          split.modules[j]     = {first, s};
          split.q[j]           = q1;
          split.modules.insert(split.modules.begin() + static_cast<std::ptrdiff_t>(j) + 1, {s + 1, last});
          split.q.insert(split.q.begin() + static_cast<std::ptrdiff_t>(j) + 1, a.q[j] - q1);
          if (double period = period_of(chain, split); period < best_period) {
            best        = std::move(split);
            best_period = period;
          }
        }
      }
    }
    if (not best) return;
    a = std::move(*best);
  }
}

/// One module per task, or, when their p_min do not fit, the clustering with the fewest processors at p_min.
std::optional<std::vector<std::pair<int, int>>> initial_clustering(const TaskChain& chain, int P)
{
  int k = chain.k();
  std::vector<std::pair<int, int>> singletons;
  int sum = 0;
  for (int i = 1; i <= k; ++i) {
    singletons.emplace_back(i, i);
    sum += module_p_min(chain, i, i);
  }
  if (sum <= P) return singletons;
  std::vector<int> cost(static_cast<std::size_t>(k) + 1, INT_MAX / 4); // cost[b]: t_1..t_b
  std::vector<int> start(static_cast<std::size_t>(k) + 1, 0);
  cost[0] = 0;
  for (int b = 1; b <= k; ++b)
    for (int a = 1; a <= b; ++a)
      if (int c = cost[a - 1] + module_p_min(chain, a, b); c < cost[b]) {
        cost[b]  = c;
        start[b] = a;
      }
  if (cost[k] > P) return std::nullopt;
  std::vector<std::pair<int, int>> clustering;
  for (int b = k; b >= 1; b = start[b] - 1)
    clustering.insert(clustering.begin(), {start[b], b});
  return clustering;
}
} // namespace

std::vector<Sv95Module> sv95_triplets(const TaskChain& chain, const Sv95Assignment& assignment)
{
  std::vector<Sv95Module> modules;
  for (std::size_t j = 0; j < assignment.q.size(); ++j) {
    auto [first, last] = assignment.modules[j];
    int q              = assignment.q[j];
    int r              = module_replicable(chain, first, last) ? std::max(1, q / module_p_min(chain, first, last)) : 1;
    modules.push_back({first, last, r, q / r});
  }
  return modules;
}

std::optional<Sv95Assignment> sv95_greedy_assignment(const TaskChain& chain,
                                                     const std::vector<std::pair<int, int>>& clustering, int P,
                                                     Sv95GreedyRule rule)
{
  Sv95Assignment a = at_p_min(chain, clustering);
  if (total(a) > P) return std::nullopt;
  Sv95Assignment best = a;
  double best_period  = period_of(chain, a);
  while (total(a) < P) {
    add_processor(chain, a, rule);
    if (double period = period_of(chain, a); period < best_period) {
      best        = a;
      best_period = period;
    }
  }
  return best;
}

std::optional<std::vector<Sv95Module>> sv95_greedy(const TaskChain& chain, int P, Sv95GreedyRule rule)
{
  auto clustering = initial_clustering(chain, P);
  if (not clustering) return std::nullopt;
  // §4.2 first run: Greedy with merges after each step, then splits on the best assignment met
  Sv95Assignment a = at_p_min(chain, *clustering);
  merge_pass(chain, a);
  Sv95Assignment best = a;
  double best_period  = period_of(chain, a);
  while (total(a) < P) {
    add_processor(chain, a, rule);
    merge_pass(chain, a);
    if (double period = period_of(chain, a); period < best_period) {
      best        = a;
      best_period = period;
    }
  }
  split_pass(chain, best);
  // §4.2: "We re-execute the algorithm with this clustering to obtain the final processor assignment"
  auto final_assignment = sv95_greedy_assignment(chain, best.modules, P, rule);
  return sv95_triplets(chain, *final_assignment);
}

MapperInfo Sv95Greedy::info() const
{
  if (rule_ == Sv95GreedyRule::neighbours)
    return sv95_info("sv95.greedy",
                     "sv95 §4 greedy: a processor at a time to the slowest module or a neighbour, clustering "
                     "merge/split",
                     Paper::sv95, MapperFamily::heuristic, false, "O(P k^3) evaluations of O(k)");
  return sv95_info("sv95.greedy-slowest",
                   "sv95 Theorem 1's greedy: a processor at a time to the slowest module, clustering merge/split",
                   Paper::sv95, MapperFamily::heuristic, false, "O(P k^3) evaluations of O(k)");
}

std::optional<std::string> Sv95Greedy::instance_refusal(const Problem& problem) const { return sv95_refusal(problem); }

MapperResult Sv95Greedy::map(const Problem& problem, const MapperOptions& /*options*/) const
{
  auto modules = sv95_greedy(*problem.task_chain, problem.platform.p(), rule_);
  if (not modules || std::isinf(sv95_evaluate(*problem.task_chain, *modules).period)) return sv95_infeasible();
  return sv95_result(*problem.task_chain, *modules, SolveStatus::feasible);
}

} // namespace pipesim
