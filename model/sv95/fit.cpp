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

std::vector<double> least_squares(const std::vector<std::vector<double>>& a, const std::vector<double>& y)
{
  const std::size_t m = a.size(), n = m > 0 ? a.front().size() : 0;
  if (m < n || n == 0 || y.size() != m)
    throw InputError(fmt::format("least squares: {} samples for {} coefficients", m, n));
  std::vector<std::vector<double>> r = a; // scaled copy, reduced in place
  std::vector<double> b              = y, scale(n, 0);
  for (std::size_t j = 0; j < n; ++j) {
    for (std::size_t i = 0; i < m; ++i)
      scale[j] = std::hypot(scale[j], r[i][j]);
    if (scale[j] == 0) throw InputError(fmt::format("least squares: coefficient {} is not sampled", j + 1));
    for (std::size_t i = 0; i < m; ++i)
      r[i][j] /= scale[j];
  }
  for (std::size_t j = 0; j < n; ++j) { // Householder reflection of column j below the diagonal
    double norm = 0;
    for (std::size_t i = j; i < m; ++i)
      norm = std::hypot(norm, r[i][j]);
    if (norm < 1e-12)
      throw InputError("least squares: the samples cannot tell the coefficients apart (rank deficient)");
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

namespace {
void add_counts(std::vector<FitPoint>& plan, const TaskChain& chain, FitStep step, int task, int lo, int P, int samples)
{
  std::vector<int> counts = spread_counts(lo, P, samples);
  if (static_cast<int>(counts.size()) < 3)
    throw InputError(fmt::format("fit: f_{}({}) needs 3 samples, and only p = {}..{} processors are possible",
                                 to_string(step), chain.task_name(task), lo, P));
  for (int p : counts)
    plan.push_back({step, task, p, 0});
}

/// 8 (ps, pr) pairs of a 3 x 3 grid (ps and pr each low, middle and high of their range) with ps + pr <= P; a grid
/// point that does not fit is moved down until it does.
struct PairRange {
  int lo_s, hi_s, lo_r, hi_r;
};
void add_pairs(std::vector<FitPoint>& plan, const TaskChain& chain, int task, PairRange range, int P, int samples)
{
  const int lo_s = range.lo_s, lo_r = range.lo_r;
  std::set<std::pair<int, int>> pairs;
  std::vector<int> ps = spread_counts(lo_s, std::max(lo_s, std::min(range.hi_s, P - lo_r)), 3);
  std::vector<int> pr = spread_counts(lo_r, std::max(lo_r, std::min(range.hi_r, P - lo_s)), 3);
  for (int s : ps)
    for (int r : pr) {
      int rs = s, rr = r;
      while (rs + rr > P && (rs > lo_s || rr > lo_r))
        (rs - lo_s >= rr - lo_r ? rs : rr) -= 1;
      if (rs + rr <= P && static_cast<int>(pairs.size()) < samples) pairs.emplace(rs, rr);
    }
  if (pairs.size() < 5)
    throw InputError(fmt::format("fit: f_ecom({} -> {}) needs 5 distinct (ps, pr) samples with ps + pr <= P = {}; "
                                 "only {} fit",
                                 chain.task_name(task), chain.task_name(task + 1), P, pairs.size()));
  for (auto [s, r] : pairs)
    plan.push_back({FitStep::ecom, task, s, r});
}
} // namespace

std::vector<FitPoint> fit_plan(const TaskChain& chain, int P, int samples)
{
  // a table is sampled where it has values (it is +inf elsewhere); polynomials over [minimum, P]
  auto lo = [](const CostFunction& f, int p_min) { return f.is_table() ? std::max(p_min, f.from) : p_min; };
  auto hi = [P](const CostFunction& f) { return std::min(P, f.last_p()); };
  std::vector<FitPoint> plan;
  for (int i = 1; i <= chain.k(); ++i) {
    const CostFunction& exec = chain.task(i).exec;
    add_counts(plan, chain, FitStep::exec, i, lo(exec, module_p_min(chain, i, i)), hi(exec), samples);
    if (i == chain.k()) break;
    const CostFunction& icom = chain.icom_after(i);
    add_counts(plan, chain, FitStep::icom, i, lo(icom, module_p_min(chain, i, i + 1)), hi(icom), samples);
    const CommFunction& ecom = chain.ecom_after(i);
    PairRange range{module_p_min(chain, i, i), P, module_p_min(chain, i + 1, i + 1), P};
    if (ecom.is_table()) { // sample inside the table, whose rows are senders and columns receivers
      range.lo_s = std::max(range.lo_s, ecom.from_s);
      range.lo_r = std::max(range.lo_r, ecom.from_r);
      range.hi_s = ecom.from_s + static_cast<int>(ecom.table.size()) - 1;
      range.hi_r = ecom.from_r + static_cast<int>(ecom.table.front().size()) - 1;
    }
    add_pairs(plan, chain, i, range, P, samples);
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

std::string FittedFunction::label(const TaskChain& chain) const
{
  if (step == FitStep::exec) return fmt::format("f_exec({})", chain.task_name(task));
  return fmt::format("f_{}({} -> {})", to_string(step), chain.task_name(task), chain.task_name(task + 1));
}

namespace {
FittedFunction fit_function(const std::vector<FitPoint>& points, const std::vector<double>& measured)
{
  FittedFunction f;
  f.step     = points.front().step;
  f.task     = points.front().task;
  f.points   = points;
  f.measured = measured;
  std::vector<std::vector<double>> rows;
  for (const FitPoint& pt : points)
    rows.push_back(fit_basis(pt));
  f.coefficients = least_squares(rows, measured);
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

FittedChain fit_task_chain(const TaskChain& chain, int P, const FitSampler& sample, int samples)
{
  std::vector<FitPoint> plan   = fit_plan(chain, P, samples);
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
    FittedFunction f = fit_function(points, values);
    apply_fit(out.chain, f);
    out.functions.push_back(std::move(f));
    s = e;
  }
  return out;
}

} // namespace pipesim
