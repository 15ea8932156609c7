// sv95 §5's least-squares fit of the response functions (fit.hpp).
#include "model/sv95/fit.hpp"

#include "base/input_error.hpp"
#include "model/sv95/response.hpp"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <numeric>
#include <set>

namespace pipesim {

namespace {
/// Scales the columns of `r` to unit norm (`scale` gets the norms) and reduces `r` and `b` in place by Householder
/// reflections; returns the first column that the samples cannot tell from the ones before it (all zero, or a
/// combination of them), or n when every column is independent.
std::size_t householder(std::vector<std::vector<double>>& r, std::vector<double>& b, std::vector<double>& scale)
{
  const std::size_t m = r.size(), n = r.front().size();
  scale.assign(n, 0);
  for (std::size_t j = 0; j < n; ++j) {
    for (std::size_t i = 0; i < m; ++i)
      scale[j] = std::hypot(scale[j], r[i][j]);
    if (scale[j] == 0) return j;
    for (std::size_t i = 0; i < m; ++i)
      r[i][j] /= scale[j];
  }
  for (std::size_t j = 0; j < n; ++j) { // Householder reflection of column j below the diagonal
    double norm = 0;
    for (std::size_t i = j; i < m; ++i)
      norm = std::hypot(norm, r[i][j]);
    if (norm < 1e-12) return j;
    double alpha = r[j][j] > 0 ? -norm : norm;
    std::vector<double> v(m, 0);
    v[j] = r[j][j] - alpha;
    for (std::size_t i = j + 1; i < m; ++i)
      v[i] = r[i][j];
    double vv = 0;
    for (std::size_t i = j; i < m; ++i)
      vv += v[i] * v[i];
    auto reflect = [&](auto&& at) {
      double dot = 0;
      for (std::size_t i = j; i < m; ++i)
        dot += v[i] * at(i);
      for (std::size_t i = j; i < m; ++i)
        at(i) -= 2 * dot / vv * v[i];
    };
    for (std::size_t c = j; c < n; ++c)
      reflect([&](std::size_t i) -> double& { return r[i][c]; });
    reflect([&](std::size_t i) -> double& { return b[i]; });
  }
  return n;
}
} // namespace

std::vector<double> least_squares(const std::vector<std::vector<double>>& a, const std::vector<double>& y,
                                  const std::string& key, const std::string& what)
{
  const std::size_t m = a.size(), n = m > 0 ? a.front().size() : 0;
  if (m < n || n == 0 || y.size() != m)
    throw InputError::keyed(key, fmt::format("{}least squares: {} samples for {} coefficients: expected at least as "
                                             "many samples as coefficients",
                                             what, m, n));
  std::vector<std::vector<double>> r = a; // scaled copy, reduced in place
  std::vector<double> b              = y, scale;
  if (std::size_t j = householder(r, b, scale); j < n)
    throw InputError::keyed(key, fmt::format("{}least squares: the samples cannot tell coefficient {} of {} from the "
                                             "others (rank deficient): samples on more different processor counts "
                                             "would (--samples, or a table over more counts)",
                                             what, j + 1, n));
  std::vector<double> x(n, 0);
  for (std::size_t j = n; j-- > 0;) { // back substitution, then undo the column scaling
    double s = b[j];
    for (std::size_t c = j + 1; c < n; ++c)
      s -= r[j][c] * x[c];
    x[j] = s / r[j][j];
  }
  for (std::size_t j = 0; j < n; ++j)
    x[j] /= scale[j];
  return x;
}

bool tells_apart(const std::vector<FitPoint>& points)
{
  if (points.empty()) return false;
  std::vector<std::vector<double>> rows;
  for (const FitPoint& pt : points)
    rows.push_back(fit_basis(pt));
  if (rows.size() < rows.front().size()) return false;
  std::vector<double> b(rows.size(), 0), scale;
  return householder(rows, b, scale) == rows.front().size();
}

std::vector<double> fit_basis(const FitPoint& point)
{
  const double p = point.p, pr = point.pr;
  if (point.step == FitStep::ecom) return {1, 1 / p, 1 / pr, p, pr};
  return {1, 1 / p, p};
}

std::vector<int> spread_counts(int lo, int hi, int count)
{
  std::set<int> out;
  if (hi - lo + 1 <= count) {
    for (int p = lo; p <= hi; ++p)
      out.insert(p);
    return {out.begin(), out.end()};
  }
  for (int t = 0; t < count; ++t) // geometric from lo to hi
    out.insert(static_cast<int>(std::lround(lo * std::pow(static_cast<double>(hi) / lo, t / (count - 1.0)))));
  for (int p = lo; static_cast<int>(out.size()) < count; ++p) // rounding merged some: fill from the bottom
    out.insert(p);
  return {out.begin(), out.end()};
}

std::string fit_label(const TaskChain& chain, FitStep step, int task)
{
  if (step == FitStep::exec) return fmt::format("f_exec({})", chain.task_name(task));
  return fmt::format("f_{}({} -> {})", to_string(step), chain.task_name(task), chain.task_name(task + 1));
}

namespace {
/// "fit: f_exec(a)": the start of a refusal about one function.
std::string refusal(const TaskChain& chain, FitStep step, int task)
{
  return fmt::format("fit: {}", fit_label(chain, step, task));
}

/// Where the processor counts of a function come from, for a refusal: "P = 4, the minimum 3 of colffts (p_min,
/// memory)", and the table's range when it has one.
std::string range_origin(const TaskChain& chain, const CostFunction& f, int first, int last, int P)
{
  std::string tasks = first == last ? chain.task_name(first)
                                    : fmt::format("{} and {} together", chain.task_name(first), chain.task_name(last));
  std::string out =
      fmt::format("P = {}, the minimum {} of {} (p_min, memory)", P, module_p_min(chain, first, last), tasks);
  return f.is_table() ? out + fmt::format(", its table for p = {}..{}", f.from, f.last_p()) : out;
}

/// `samples` counts spread over [lo, hi] (all of them when fewer); 3 at least, the coefficients of C1 + C2/p + C3 p.
void add_counts(std::vector<FitPoint>& plan, FitStep step, int task, int lo, int hi, int samples)
{
  for (int p : spread_counts(lo, hi, samples))
    plan.push_back({step, task, p, 0});
}

struct PairRange {
  int lo_s, hi_s, lo_r, hi_r;
};

/// The distinct (ps, pr) pairs of a 3 x 3 grid (ps and pr each low, middle and high of their range) with
/// ps + pr <= P, a grid point that does not fit moved down until it does. In order of preference: the cross through
/// the middle first (5 pairs that tell the 5 coefficients apart when each side has 3 different counts), then the
/// corners, (high, high) last.
std::vector<FitPoint> ecom_candidates(int task, PairRange range, int P)
{
  const int lo_s = range.lo_s, lo_r = range.lo_r;
  std::vector<int> ps = spread_counts(lo_s, std::max(lo_s, std::min(range.hi_s, P - lo_r)), 3);
  std::vector<int> pr = spread_counts(lo_r, std::max(lo_r, std::min(range.hi_r, P - lo_s)), 3);
  auto at             = [](const std::vector<int>& v, std::size_t i) { return v[std::min(i, v.size() - 1)]; };
  constexpr std::pair<std::size_t, std::size_t> order[] = {{1, 1}, {0, 1}, {2, 1}, {1, 0}, {1, 2},
                                                           {0, 0}, {0, 2}, {2, 0}, {2, 2}};
  std::vector<FitPoint> out;
  for (auto [i, j] : order) {
    int rs = at(ps, i), rr = at(pr, j);
    while (rs + rr > P && (rs > lo_s || rr > lo_r))
      (rs - lo_s >= rr - lo_r ? rs : rr) -= 1;
    FitPoint pt{FitStep::ecom, task, rs, rr};
    if (rs + rr <= P && std::ranges::find(out, pt) == out.end()) out.push_back(pt);
  }
  return out;
}

/// The first `count` candidates, in order of preference, that tell the coefficients apart: the first `count` when
/// they do, else the first such subset in lexicographic order of the candidates; empty when none does.
std::vector<FitPoint> first_telling_apart(const std::vector<FitPoint>& candidates, std::size_t count)
{
  const std::size_t n = candidates.size();
  std::vector<std::size_t> pick(count);
  for (std::size_t i = 0; i < count; ++i)
    pick[i] = i;
  while (true) {
    std::vector<FitPoint> subset;
    for (std::size_t i : pick)
      subset.push_back(candidates[i]);
    if (tells_apart(subset)) return subset;
    std::size_t i = count; // next combination: the last index that can move, then the ones after it
    while (i > 0 && pick[i - 1] == n - count + i - 1)
      --i;
    if (i == 0) return {};
    ++pick[i - 1];
    for (std::size_t k = i; k < count; ++k)
      pick[k] = pick[k - 1] + 1;
  }
}

std::string pairs_text(const std::vector<FitPoint>& points)
{
  std::string out;
  for (const FitPoint& pt : points)
    out += fmt::format("{}({}, {})", out.empty() ? "" : ", ", pt.p, pt.pr);
  return out;
}

void add_pairs(std::vector<FitPoint>& plan, const TaskChain& chain, int task, PairRange range, int P, int samples,
               const FitLocator& where)
{
  std::vector<FitPoint> candidates = ecom_candidates(task, range, P);
  std::string span =
      fmt::format("senders on ps = {}..{} and receivers on pr = {}..{} processors with ps + pr <= P = "
                  "{}: the tasks' minimums (p_min, memory){}",
                  range.lo_s, std::min(range.hi_s, P - range.lo_r), range.lo_r, std::min(range.hi_r, P - range.lo_s), P,
                  chain.ecom_after(task).is_table() ? " and the table's range" : "");
  std::vector<FitPoint> chosen;
  if (candidates.size() >= 5)
    chosen = first_telling_apart(candidates, std::min(candidates.size(), static_cast<std::size_t>(samples)));
  if (chosen.empty()) {
    std::ranges::sort(candidates, {}, [](const FitPoint& pt) { return std::pair(pt.p, pt.pr); });
    std::set<int> s, r;
    for (const FitPoint& pt : candidates) {
      s.insert(pt.p);
      r.insert(pt.pr);
    }
    std::string more = chain.ecom_after(task).is_table()
                           ? "A table covering more sender and receiver counts"
                           : fmt::format("A platform with more processors, or smaller minimums of {} and {},",
                                         chain.task_name(task), chain.task_name(task + 1));
    throw InputError::keyed(fit_key(FitStep::ecom, task, where),
                            fmt::format("{} needs samples that tell the 5 coefficients of C1 + C2/ps + C3/pr + C4 ps "
                                        "+ C5 pr apart (3 different ps and 3 different pr at least), and the {} (ps, "
                                        "pr) possible here, {}, do not: {} different ps and {} different pr ({}). {} "
                                        "would give more",
                                        refusal(chain, FitStep::ecom, task), candidates.size(), pairs_text(candidates),
                                        s.size(), r.size(), span, more));
  }
  std::ranges::sort(chosen, {}, [](const FitPoint& pt) { return std::pair(pt.p, pt.pr); });
  plan.insert(plan.end(), chosen.begin(), chosen.end());
}
} // namespace

std::vector<FitPoint> fit_plan(const TaskChain& chain, int P, int samples, const FitLocator& where)
{
  // a table is sampled where it has values (it is +inf elsewhere); polynomials over [minimum, P]
  auto lo     = [](const CostFunction& f, int p_min) { return f.is_table() ? std::max(p_min, f.from) : p_min; };
  auto hi     = [P](const CostFunction& f) { return std::min(P, f.last_p()); };
  auto counts = [&](std::vector<FitPoint>& plan, FitStep step, int i, int last, const CostFunction& f) {
    int from = lo(f, module_p_min(chain, i, last)), to = hi(f);
    if (to - from + 1 < 3)
      throw InputError::keyed(fit_key(step, i, where),
                              fmt::format("{} needs 3 samples on different processor counts (C1 + C2/p + C3 p has 3 "
                                          "coefficients), and only p = {}..{} are possible ({}): {} would give more",
                                          refusal(chain, step, i), from, to, range_origin(chain, f, i, last, P),
                                          f.is_table() ? "a table over more processor counts"
                                                       : "a platform with more processors, or a smaller minimum,"));
    add_counts(plan, step, i, from, to, samples);
  };
  if (samples < 5)
    throw InputError::option("--samples", samples,
                             "expected at least 5 samples per function (f_ecom has 5 "
                             "coefficients)");
  std::vector<FitPoint> plan;
  for (int i = 1; i <= chain.k(); ++i) {
    counts(plan, FitStep::exec, i, i, chain.task(i).exec);
    if (i == chain.k()) break;
    counts(plan, FitStep::icom, i, i + 1, chain.icom_after(i));
    const CommFunction& ecom = chain.ecom_after(i);
    PairRange range{module_p_min(chain, i, i), P, module_p_min(chain, i + 1, i + 1), P};
    if (ecom.is_table()) { // sample inside the table, whose rows are senders and columns receivers
      range.lo_s = std::max(range.lo_s, ecom.from_s);
      range.lo_r = std::max(range.lo_r, ecom.from_r);
      range.hi_s = ecom.from_s + static_cast<int>(ecom.table.size()) - 1;
      range.hi_r = ecom.from_r + static_cast<int>(ecom.table.front().size()) - 1;
    }
    add_pairs(plan, chain, i, range, P, samples, where);
  }
  return plan;
}

std::vector<double> evaluate_samples(const TaskChain& chain, const std::vector<FitPoint>& plan)
{
  std::vector<double> out;
  for (const FitPoint& pt : plan) {
    if (pt.step == FitStep::exec) out.push_back(chain.task(pt.task).exec(pt.p));
    if (pt.step == FitStep::icom) out.push_back(chain.icom_after(pt.task)(pt.p));
    if (pt.step == FitStep::ecom) out.push_back(chain.ecom_after(pt.task)(pt.p, pt.pr));
  }
  return out;
}

double FittedFunction::value(int p, int pr) const
{
  std::vector<double> basis = fit_basis({step, task, p, pr});
  return std::inner_product(basis.begin(), basis.end(), coefficients.begin(), 0.0);
}

void apply_fit(TaskChain& chain, const FittedFunction& f)
{
  const auto& c         = f.coefficients;
  const std::size_t idx = static_cast<std::size_t>(f.task - 1);
  if (f.step == FitStep::exec) chain.tasks[idx].exec = CostFunction::polynomial(c[0], c[1], c[2]);
  if (f.step == FitStep::icom) chain.icom[idx] = CostFunction::polynomial(c[0], c[1], c[2]);
  if (f.step == FitStep::ecom) chain.ecom[idx] = CommFunction::polynomial(c[0], c[1], c[2], c[3], c[4]);
}

std::string fit_key(FitStep step, int task, const FitLocator& where)
{
  if (where) return where(step, task);
  return fmt::format("task_chain.tasks[{}].{}", task - 1, to_string(step));
}

std::string FittedFunction::label(const TaskChain& chain) const { return fit_label(chain, step, task); }

namespace {
FittedFunction fit_function(const TaskChain& chain, const std::vector<FitPoint>& points,
                            const std::vector<double>& measured, const FitLocator& where)
{
  FittedFunction f;
  f.step     = points.front().step;
  f.task     = points.front().task;
  f.points   = points;
  f.measured = measured;
  std::vector<std::vector<double>> rows;
  for (const FitPoint& pt : points)
    rows.push_back(fit_basis(pt));
  f.coefficients = least_squares(rows, measured, fit_key(f.step, f.task, where),
                                 fmt::format("{}: ", refusal(chain, f.step, f.task)));
  double sum     = 0;
  for (std::size_t s = 0; s < points.size(); ++s) {
    double value = f.value(points[s].p, points[s].pr);
    double error = std::abs(value - measured[s]);
    f.fitted.push_back(value);
    sum += error * error;
    f.max_abs_residual = std::max(f.max_abs_residual, error);
    if (measured[s] > 0) f.max_rel_residual = std::max(f.max_rel_residual, error / measured[s]);
  }
  f.rms_residual = std::sqrt(sum / static_cast<double>(points.size()));
  return f;
}
} // namespace

FittedChain fit_task_chain(const TaskChain& chain, int P, const FitSampler& sample, int samples,
                           const FitLocator& where)
{
  std::vector<FitPoint> plan   = fit_plan(chain, P, samples, where);
  std::vector<double> measured = sample(plan);
  if (measured.size() != plan.size())
    throw std::logic_error(fmt::format("fit: {} samples measured for {} asked", measured.size(), plan.size()));
  FittedChain out;
  out.chain = chain;
  for (std::size_t s = 0; s < plan.size();) { // consecutive samples of one function
    std::size_t e = s;
    while (e < plan.size() && plan[e].step == plan[s].step && plan[e].task == plan[s].task)
      ++e;
    std::vector<FitPoint> points(plan.begin() + static_cast<long>(s), plan.begin() + static_cast<long>(e));
    std::vector<double> values(measured.begin() + static_cast<long>(s), measured.begin() + static_cast<long>(e));
    FittedFunction f = fit_function(chain, points, values, where);
    apply_fit(out.chain, f);
    out.functions.push_back(std::move(f));
    s = e;
  }
  return out;
}

} // namespace pipesim
