// Shared helpers of the exact interval solver.
#include "mappers/exact/search.hpp"

#include <cmath>
#include <limits>

namespace pipesim::exact {

namespace {
/// Node budget of one bisection probe: enough for easy periods, small next to the final proof.
constexpr std::uint64_t probe_budget = 20000;

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

SearchOutcome solve(const std::vector<PeriodSearch*>& searches, const Deadline& deadline, SearchOutcome start)
{
  SearchOutcome best = std::move(start);
  if (best.intervals.empty()) {
    // Under T = +inf the first child of the root is a whole mapping: one node, whatever the deadline says.
    Deadline unlimited(std::numeric_limits<double>::infinity());
    merge(best, searches.front()->minimize(best.period, SearchLimits{&unlimited, probe_budget, true}));
  }
  double lo = 0; // no mapping has a period below 0; raised by every probe proved infeasible
  for (int step = 0; step < 64; ++step) {
    double probe = lo + (best.period - lo) / 2;
    if (probe <= lo || best.period - lo <= 1e-9 * best.period || deadline.expired()) break;
    SearchOutcome found = searches.front()->minimize(probe, SearchLimits{&deadline, probe_budget, true});
    if (found.intervals.empty() && not found.complete) break; // a hard period: leave it to the branch and bound
    if (found.intervals.empty()) lo = probe;
    merge(best, std::move(found));
  }
  // Branch and bound from the best mapping known; with several searches, round robin under doubling node budgets
  // (each keeps its memorised failures, valid since the bound only decreases), until one of them completes.
  std::uint64_t budget = searches.size() == 1 ? std::numeric_limits<std::uint64_t>::max() : probe_budget;
  while (not deadline.expired()) {
    for (PeriodSearch* search : searches) {
      SearchOutcome found = search->minimize(below(best.period), SearchLimits{&deadline, budget, false});
      bool complete       = found.complete;
      merge(best, std::move(found));
      if (complete) {
        best.complete = true;
        return best;
      }
      if (deadline.expired()) return best;
    }
    budget = budget > std::numeric_limits<std::uint64_t>::max() / 2 ? budget : 2 * budget;
  }
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
