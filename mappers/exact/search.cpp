// Shared helpers of the exact interval solver.
#include "mappers/exact/search.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace pipesim::exact {

namespace {
/// Node budget of one bisection probe, and the first budget of each search in the branch and bound's round robin:
/// small, so that the direction that finds the proof easy is not kept waiting (docs/exact.md has the measurements),
/// but a few times the depth of a mapping, so that a probe can reach one.
std::uint64_t probe_budget(const PeriodSearch& search)
{
  return std::max<std::uint64_t>(100, 4 * static_cast<std::uint64_t>(search.stages()));
}
/// Undecided probes after which the bisection stops (each halves the interval left for the lower bound).
constexpr int max_undecided_probes = 8;

/// Keeps the better of two outcomes in `best`.
void merge(SearchOutcome& best, SearchOutcome found)
{
  best.improvements += found.improvements;
  if (found.intervals.empty() || found.period >= best.period) return;
  best.intervals = std::move(found.intervals);
  best.alloc     = std::move(found.alloc);
  best.period    = found.period;
}

double below(double period)
{
  return std::isfinite(period) ? std::nextafter(period, -std::numeric_limits<double>::infinity()) : period;
}
} // namespace

namespace {
/// Probe outcome of a bound T: a mapping of period <= T was found, none exists, or no search decided in its budget.
enum class Probe { feasible, infeasible, undecided };

/// The phases of solve() over a deadline and a total node limit.
class Solver {
public:
  Solver(const std::vector<PeriodSearch*>& searches, const Deadline& deadline, std::uint64_t node_limit)
      : searches_(searches), deadline_(deadline), node_limit_(node_limit)
  {
    for (const PeriodSearch* search : searches)
      start_nodes_ += search->nodes();
  }
  void bisect(SearchOutcome& best);
  void branch_and_bound(SearchOutcome& best);

private:
  std::uint64_t used() const
  {
    std::uint64_t nodes = 0;
    for (const PeriodSearch* search : searches_)
      nodes += search->nodes();
    return nodes - start_nodes_;
  }
  bool stopped() const { return deadline_.expired() || used() >= node_limit_; }
  /// A search's node budget, within what the node limit leaves.
  SearchLimits limits(std::uint64_t budget, bool first_only) const
  {
    return SearchLimits{&deadline_, std::min(budget, node_limit_ - std::min(node_limit_, used())), first_only};
  }
  Probe probe(double bound, SearchOutcome& best);

  const std::vector<PeriodSearch*>& searches_;
  const Deadline& deadline_;
  std::uint64_t node_limit_;
  std::uint64_t start_nodes_ = 0;
};

Probe Solver::probe(double bound, SearchOutcome& best)
{
  // Each search in turn at bound T, stopping at its first mapping, until one decides.
  for (PeriodSearch* search : searches_) {
    SearchOutcome found = search->minimize(bound, limits(probe_budget(*search), true));
    if (not found.intervals.empty()) {
      merge(best, std::move(found));
      return Probe::feasible;
    }
    if (found.complete) return Probe::infeasible;
    if (stopped()) break;
  }
  return Probe::undecided;
}

void Solver::bisect(SearchOutcome& best)
{
  // Between the lower bound (every probe proved infeasible raises it) and the best period. A probe left undecided
  // by its budget is a hard bound: the bisection goes on below it, for the lower bound, a few times.
  double hard   = best.period; // lowest undecided bound (or the best period)
  int undecided = 0;
  for (int step = 0; step < 64 && undecided < max_undecided_probes; ++step) {
    double top   = std::min(hard, best.period);
    double bound = best.lower_bound + (top - best.lower_bound) / 2;
    if (bound <= best.lower_bound || top - best.lower_bound <= 1e-9 * top || stopped()) return;
    switch (probe(bound, best)) {
    case Probe::infeasible:
      best.lower_bound = bound;
      break;
    case Probe::undecided:
      hard = bound;
      ++undecided;
      break;
    case Probe::feasible:
      break;
    }
  }
}

void Solver::branch_and_bound(SearchOutcome& best)
{
  // From the best mapping known; with several searches, round robin under doubling node budgets (each keeps its
  // memorised failures, valid since the bound only decreases), until one of them completes.
  std::uint64_t budget =
      searches_.size() == 1 ? std::numeric_limits<std::uint64_t>::max() : probe_budget(*searches_.front());
  while (not stopped()) {
    for (PeriodSearch* search : searches_) {
      SearchOutcome found = search->minimize(below(best.period), limits(budget, false));
      bool complete       = found.complete;
      merge(best, std::move(found));
      if (complete) {
        best.complete    = true;
        best.lower_bound = best.period;
        return;
      }
      if (stopped()) return;
    }
    budget = budget > std::numeric_limits<std::uint64_t>::max() / 2 ? budget : 2 * budget;
  }
}
} // namespace

SearchOutcome solve(const std::vector<PeriodSearch*>& searches, const Deadline& deadline, SearchOutcome start,
                    std::uint64_t node_limit)
{
  SearchOutcome best = std::move(start);
  best.lower_bound   = 0; // no mapping has a negative period
  if (best.intervals.empty()) {
    // Under T = +inf the first child of the root is a whole mapping: one node, whatever the limits say.
    Deadline unlimited(std::numeric_limits<double>::infinity());
    merge(best,
          searches.front()->minimize(best.period, SearchLimits{&unlimited, probe_budget(*searches.front()), true}));
  }
  Solver solver(searches, deadline, node_limit);
  solver.bisect(best);
  solver.branch_and_bound(best);
  return best;
}

namespace {
constexpr std::size_t max_slots = std::size_t{1} << 22;
}

void FailedStates::clear()
{
  ++generation_;
  size_ = 0;
}

std::size_t FailedStates::slot_of(std::uint64_t a, std::uint64_t b) const
{
  std::uint64_t h = (a ^ (b * 0x9e3779b97f4a7c15ULL)) * 0xbf58476d1ce4e5b9ULL;
  h ^= h >> 31;
  std::size_t mask = slots_.size() - 1;
  for (auto at = static_cast<std::size_t>(h) & mask;; at = (at + 1) & mask) {
    const Slot& slot = slots_[at];
    if (slot.generation != generation_ || (slot.a == a && slot.b == b)) return at;
  }
}

const double* FailedStates::find(std::uint64_t a, std::uint64_t b) const
{
  if (slots_.empty()) return nullptr;
  const Slot& slot = slots_[slot_of(a, b)];
  return slot.generation == generation_ ? &slot.value : nullptr;
}

void FailedStates::grow()
{
  std::vector<Slot> old = std::move(slots_);
  slots_.assign(old.empty() ? 256 : 2 * old.size(), Slot{0, 0, 0, 0});
  size_ = 0;
  for (const Slot& slot : old)
    if (slot.generation == generation_) raise(slot.a, slot.b, slot.value);
}

void FailedStates::raise(std::uint64_t a, std::uint64_t b, double value)
{
  if (2 * (size_ + 1) > slots_.size()) {
    if (slots_.size() >= max_slots)
      clear();
    else
      grow();
  }
  Slot& slot = slots_[slot_of(a, b)];
  if (slot.generation != generation_) {
    slot = Slot{a, b, value, generation_};
    ++size_;
  } else if (value > slot.value) {
    slot.value = value;
  }
}

std::vector<double> interval_work_table(const Pipeline& pipeline)
{
  int n = pipeline.n();
  std::vector<double> work(static_cast<std::size_t>(n) * static_cast<std::size_t>(n), 0.0);
  for (int i = 0; i < n; ++i) {
    double sum = 0;
    for (int e = i; e < n; ++e) {
      sum += pipeline.work(e + 1);
      work[static_cast<std::size_t>(i) * static_cast<std::size_t>(n) + static_cast<std::size_t>(e)] = sum;
    }
  }
  return work;
}

} // namespace pipesim::exact
