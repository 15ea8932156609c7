// MSER-5 warm-up, batch means and the periodic rule for deterministic runs.
#include "base/period_estimate.hpp"

#include <boost/math/distributions/students_t.hpp>
#include <cmath>
#include <fmt/format.h>
#include <limits>
#include <optional>
#include <vector>

namespace pipesim {

namespace {

struct Periodicity {
  long long cyclicity = 0;
  double shift        = 0; // D = t_{k+c} - t_k
  long long from      = 0; // first k for which it holds
};

/// The smallest cyclicity c (multiple of L) with t_{k+c} - t_k = D over the second half of the run (see the header).
std::optional<Periodicity> find_periodicity(std::span<const double> t, long long window)
{
  const auto n      = static_cast<long long>(t.size());
  const long long h = n / 2;
  const double ulps = 64 * std::numeric_limits<double>::epsilon() * std::abs(t[static_cast<std::size_t>(n - 1)]);
  auto gap          = [&](long long k, long long c) {
    return t[static_cast<std::size_t>(k + c)] - t[static_cast<std::size_t>(k)];
  };
  for (long long c = window; 6 * c <= n - 1 && (n - 1 - c) - h >= 2 * c; c += window) {
    const double d   = gap(n - 1 - c, c);
    const double tol = 1e-9 * std::abs(d) + ulps;
    long long k      = n - 1 - c;
    while (k >= 0 && std::abs(gap(k, c) - d) <= tol)
      --k;
    if (k < h && d > 0) return Periodicity{c, d, k + 1};
  }
  return std::nullopt;
}

/// MSER-5 (White 1997): the truncation, in batches of 5 windows, and whether it reached its cap m/2.
std::pair<long long, bool> mser5(const std::vector<double>& windows)
{
  const auto m = static_cast<long long>(windows.size()) / 5;
  std::vector<double> z(static_cast<std::size_t>(m), 0.0);
  for (long long b = 0; b < m; ++b) {
    double s = 0;
    for (long long i = 0; i < 5; ++i)
      s += windows[static_cast<std::size_t>(5 * b + i)];
    z[static_cast<std::size_t>(b)] = s / 5;
  }
  // suffix sums of z and z^2 give sum_{b >= d} (z_b - mean_d)^2 = S2 - S1^2 / (m - d)
  double s1 = 0, s2 = 0, best = std::numeric_limits<double>::infinity();
  long long best_d = 0;
  std::vector<double> score(static_cast<std::size_t>(m), 0.0);
  for (long long d = m - 1; d >= 0; --d) {
    double zd = z[static_cast<std::size_t>(d)];
    s1 += zd;
    s2 += zd * zd;
    double left                        = static_cast<double>(m - d);
    score[static_cast<std::size_t>(d)] = std::max(0.0, s2 - s1 * s1 / left) / (left * left);
  }
  for (long long d = 0; 2 * d <= m; ++d)
    if (score[static_cast<std::size_t>(d)] < best) {
      best   = score[static_cast<std::size_t>(d)];
      best_d = d;
    }
  return {best_d, m >= 4 && 2 * best_d >= m - 1};
}

void batch_means(std::span<const double> t, const PeriodEstimateOptions& o, long long first_window, long long windows,
                 PeriodEstimate& e)
{
  const long long l    = o.window;
  const long long per  = windows / o.batches; // windows per batch
  const long long from = first_window + (windows - per * o.batches);
  e.warmup             = from * l;
  e.batches            = o.batches;
  e.batch_datasets     = per * l;
  std::vector<double> means;
  for (int b = 0; b < o.batches; ++b) {
    auto a = static_cast<std::size_t>((from + b * per) * l);
    auto z = static_cast<std::size_t>((from + (b + 1) * per) * l);
    means.push_back((t[z] - t[a]) / static_cast<double>(per * l));
  }
  const auto last = static_cast<std::size_t>((from + o.batches * per) * l);
  e.period        = (t[last] - t[static_cast<std::size_t>(from * l)]) / static_cast<double>(o.batches * per * l);
  double sq       = 0;
  for (double x : means)
    sq += (x - e.period) * (x - e.period);
  const double sd   = std::sqrt(sq / (o.batches - 1));
  const double q    = boost::math::quantile(boost::math::students_t(o.batches - 1), 0.5 + 0.5 * o.confidence);
  const double half = q * sd / std::sqrt(static_cast<double>(o.batches));
  e.ci_lo           = e.period - half;
  e.ci_hi           = e.period + half;
}

std::optional<std::string> options_error(const PeriodEstimateOptions& o)
{
  if (!(o.confidence > 0 && o.confidence < 1)) return fmt::format("confidence {}: expected in (0, 1)", o.confidence);
  if (o.batches < 2) return fmt::format("{} batches: expected at least 2", o.batches);
  if (o.window < 1) return fmt::format("window {}: expected at least 1 data set", o.window);
  return std::nullopt;
}

} // namespace

double PeriodEstimate::relative_half_width() const { return period > 0 ? half_width() / period : 0; }

std::string PeriodEstimate::to_string() const
{
  if (periodic) return fmt::format("{:.10g} (periodic from data set {}, cyclicity {})", period, warmup, cyclicity);
  if (!ok) return fmt::format("{:.10g} (no interval: {})", period, reason);
  return fmt::format("{:.10g} [{:.10g}, {:.10g}] ({:g} %, {} batches of {} data sets after a warm-up of {})", period,
                     ci_lo, ci_hi, 100 * confidence, batches, batch_datasets, warmup);
}

PeriodEstimate estimate_period(std::span<const double> t, const PeriodEstimateOptions& o)
{
  PeriodEstimate e;
  e.confidence = o.confidence;
  e.datasets   = static_cast<long long>(t.size());
  if (auto error = options_error(o)) {
    e.reason = *error;
    return e;
  }
  if (o.deterministic && t.size() >= 7)
    if (auto p = find_periodicity(t, o.window)) {
      e.ok = e.periodic = true;
      e.cyclicity       = p->cyclicity;
      e.warmup          = p->from;
      e.period = e.ci_lo = e.ci_hi = p->shift / static_cast<double>(p->cyclicity);
      e.reason = fmt::format("periodic: t(k+{}) - t(k) = {:.17g} for every k >= {} (deterministic run): exact period, "
                             "interval of width 0",
                             p->cyclicity, p->shift, p->from);
      return e;
    }
  const long long l = o.window;
  const long long j = e.datasets > 0 ? (e.datasets - 1) / l : 0;
  if (j < 10 || j < o.batches) {
    e.reason =
        fmt::format("{} windows of {} data set(s): at least {} are needed", j, l, std::max<long long>(10, o.batches));
    if (j > 0) e.period = (t[static_cast<std::size_t>(j * l)] - t[0]) / static_cast<double>(j * l);
    return e;
  }
  std::vector<double> windows;
  for (long long w = 0; w < j; ++w)
    windows.push_back((t[static_cast<std::size_t>((w + 1) * l)] - t[static_cast<std::size_t>(w * l)]) /
                      static_cast<double>(l));
  auto [d, at_cap]      = mser5(windows);
  const long long first = 5 * d;
  if (j - first < o.batches) {
    e.reason = fmt::format("{} windows left after a warm-up of {}: fewer than {} batches", j - first, first, o.batches);
    return e;
  }
  batch_means(t, o, first, j - first, e);
  e.ok = !at_cap && !o.deterministic;
  if (at_cap)
    e.reason = "MSER-5 truncated half of the run (its cap): the warm-up may not be over; run longer";
  else if (o.deterministic)
    e.reason = "deterministic run not periodic yet: batch means of a transient say nothing of the limit (equal batch "
               "means can hide a drift inside each window); run longer";
  else
    e.reason = fmt::format("batch means: warm-up of {} data sets (MSER-5), {} batches of {} data sets", e.warmup,
                           e.batches, e.batch_datasets);
  return e;
}

} // namespace pipesim
