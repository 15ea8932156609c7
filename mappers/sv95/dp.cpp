// sv95 §3: dynamic program over modules with the processors per instance of the last and next module.
#include "mappers/sv95/dp.hpp"

#include "mappers/sv95/greedy.hpp"
#include "mappers/sv95/tables.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <limits>

namespace pipesim {

namespace {
const MapperRegistration any{[] { return std::make_unique<Sv95Dp>(Sv95DpReplication::any); }};
const MapperRegistration maximal{[] { return std::make_unique<Sv95Dp>(Sv95DpReplication::maximal); }};

constexpr double max_table_entries = 6e7;

double table_entries(int k, int P)
{
  double p = P;
  return (k - 1) * p * p * p / 6 + p * p / 2;
}

/// V_b(U, p, q) for b < k (1 <= p <= U, 1 <= q <= P - U) and V_k(U, p) (1 <= p <= U), +inf when unreachable.
class ValueTable {
public:
  ValueTable(int k, int P) : k_(k), P_(P), offset_(static_cast<std::size_t>(P) + 2, 0), last_(P + 2, 0)
  {
    for (int U = 1; U <= P; ++U) {
      offset_[U + 1] = offset_[U] + static_cast<std::size_t>(U) * static_cast<std::size_t>(P - U);
      last_[U + 1]   = last_[U] + static_cast<std::size_t>(U);
    }
    for (int b = 1; b < k; ++b)
      values_.emplace_back(offset_[P + 1], infinity);
    values_.emplace_back(last_[P + 1], infinity);
  }
  /// The q = 1..P - U entries of V_b(U, p, .) (b < k), or the single V_k(U, p).
  double* row(int b, int U, int p)
  {
    auto& v = values_[static_cast<std::size_t>(b - 1)];
    if (b == k_) return &v[last_[U] + static_cast<std::size_t>(p - 1)];
    return &v[offset_[U] + static_cast<std::size_t>(p - 1) * static_cast<std::size_t>(P_ - U)];
  }
  double at(int b, int U, int p, int q) { return row(b, U, p)[b == k_ ? 0 : q - 1]; }

private:
  int k_;
  int P_;
  std::vector<std::size_t> offset_;
  std::vector<std::size_t> last_;
  std::vector<std::vector<double>> values_;
};

/// A module's options on processors: r instances of p each, taking `cost` processors.
struct Option {
  int r;
  int p;
  int cost;
};

/// The options of module [a, b] with at most `room` processors, in the order the table is filled.
std::vector<Option> options(const Sv95Tables& t, int a, int b, int room, Sv95DpReplication replication)
{
  std::vector<Option> out;
  int p_min       = t.p_min(a, b);
  bool replicable = t.replicable(a, b);
  if (replication == Sv95DpReplication::maximal) {
    for (int q = p_min; q <= room; ++q) { // §3.2: floor(q / p_min) instances, the processors divided equally
      int r = replicable ? q / p_min : 1;
      out.push_back({r, q / r, q});
    }
    return out;
  }
  for (int p = p_min; p <= room; ++p)
    for (int r = 1; r * p <= room && (r == 1 || replicable); ++r)
      out.push_back({r, p, r * p});
  return out;
}

/// The module's term in the max, computed in the same operations when filling and when reading the table back.
double value(double prev, double base, double out, int r) { return std::max(prev, (base + out) / r); }

class Dp {
public:
  Dp(const Sv95Tables& t, Sv95DpReplication replication, const Deadline& deadline)
      : t_(t), replication_(replication), table_(t.k(), t.P()), deadline_(deadline)
  {
  }

  /// Fills the table; false when the time limit ran out.
  bool fill()
  {
    for (int b = 1; b <= t_.k(); ++b)
      for (int a = 1; a <= b; ++a)
        if (not add_module(a, b)) return false;
    return true;
  }

  /// The optimum's triplets (smallest period, then fewest processors U), or empty when nothing fits.
  std::vector<Sv95Module> best()
  {
    int k = t_.k(), best_U = 0, best_p = 0;
    double best_value = infinity;
    for (int U = 1; U <= t_.P(); ++U)
      for (int p = 1; p <= U; ++p)
        if (double v = table_.at(k, U, p, 0); v < best_value) {
          best_value = v;
          best_U     = U;
          best_p     = p;
        }
    if (best_U == 0) return {};
    return unfold(k, best_U, best_p, 0, best_value);
  }

private:
  bool out_of_time() const { return deadline_.expired(); }

  /// Every transition that ends with module [a, b].
  bool add_module(int a, int b)
  {
    int P = t_.P(), k = t_.k();
    int reserve = b < k ? 1 : 0; // a next module needs at least one processor
    for (int U0 = a == 1 ? 0 : t_.min_before(a); U0 <= (a == 1 ? 0 : P - 1); ++U0) {
      if (out_of_time()) return false;
      for (const Option& o : options(t_, a, b, P - U0 - reserve, replication_))
        for (int p0 = a == 1 ? 0 : 1; p0 <= (a == 1 ? 0 : U0); ++p0) {
          double prev = a == 1 ? -infinity : table_.at(a - 1, U0, p0, o.p);
          if (prev == infinity) continue;
          double base = t_.input(a, p0, o.p) + t_.exec(a, b, o.p);
          int U       = U0 + o.cost;
          double* dst = table_.row(b, U, o.p);
          if (b == k) {
            *dst = std::min(*dst, value(prev, base, t_.output(b, o.p, 0), o.r));
            continue;
          }
          const double* out = t_.ecom_row(b, o.p);
          for (int q = 1; q <= P - U; ++q)
            dst[q - 1] = std::min(dst[q - 1], value(prev, base, out[q], o.r));
        }
    }
    return true;
  }

  /// Reads the modules back from V_b(U, p, q) = v: the first transition (a, option, p') that gives v.
  std::vector<Sv95Module> unfold(int b, int U, int p, int q, double v)
  {
    for (int a = 1; a <= b; ++a)
      for (const Option& o : options(t_, a, b, U, replication_)) {
        if (o.p != p || (a == 1 && o.cost != U)) continue;
        int U0 = U - o.cost;
        for (int p0 = a == 1 ? 0 : 1; p0 <= (a == 1 ? 0 : U0); ++p0) {
          double prev = a == 1 ? -infinity : table_.at(a - 1, U0, p0, p);
          if (prev == infinity) continue;
          double base = t_.input(a, p0, p) + t_.exec(a, b, p);
          if (value(prev, base, t_.output(b, p, q), o.r) != v) continue;
          std::vector<Sv95Module> modules = a == 1 ? std::vector<Sv95Module>{} : unfold(a - 1, U0, p0, p, prev);
          modules.push_back({a, b, o.r, p});
          return modules;
        }
      }
    return {}; // unreachable: v came from one of these transitions
  }

  const Sv95Tables& t_;
  Sv95DpReplication replication_;
  ValueTable table_;
  Deadline deadline_;
};
} // namespace

MapperInfo Sv95Dp::info() const
{
  if (replication_ == Sv95DpReplication::any)
    return sv95_info("sv95.dp",
                     "sv95 §3's dynamic program with every instance count r and the next module's processors in the "
                     "state: optimal",
                     Paper::sv95, MapperFamily::dynamic_program, true, "O(k^2 P^4 log P) time, O(k P^3) memory");
  return sv95_info("sv95.dp-maximal",
                   "sv95 §3's dynamic program with §3.2's maximal replication as written: not always optimal",
                   Paper::sv95, MapperFamily::dynamic_program, false, "O(k^2 P^4) time, O(k P^3) memory");
}

std::optional<std::string> Sv95Dp::instance_refusal(const Problem& problem) const
{
  if (auto reason = sv95_refusal(problem)) return reason;
  int k = problem.task_chain->k(), P = problem.platform.p();
  if (double entries = table_entries(k, P); entries > max_table_entries)
    return fmt::format("the table V_b(U, p, q) would have {:.3g} entries (k = {}, P = {}), more than {:.0g}", entries,
                       k, P, max_table_entries);
  return std::nullopt;
}

MapperResult Sv95Dp::map(const Problem& problem, const MapperOptions& options) const
{
  const TaskChain& chain = *problem.task_chain;
  Sv95Tables tables(chain, problem.platform.p());
  if (tables.min_before(chain.k() + 1) > tables.P()) return sv95_infeasible();
  Dp dp(tables, replication_, options.deadline());
  if (not dp.fill()) {
    auto fallback = sv95_greedy(chain, tables.P(), Sv95GreedyRule::neighbours);
    return sv95_result(chain, *fallback, SolveStatus::time_limit);
  }
  std::vector<Sv95Module> modules = dp.best();
  if (modules.empty()) return sv95_infeasible();
  return sv95_result(chain, modules,
                     replication_ == Sv95DpReplication::any ? SolveStatus::optimal : SolveStatus::feasible);
}

} // namespace pipesim
