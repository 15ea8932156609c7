// Max-plus recurrence of an event graph with per-data-set durations, and the period it measures.
#include "model/maxplus.hpp"

#include "base/input_error.hpp"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <limits>

namespace pipesim {

namespace {

/// The transition's duration depends on a law that is not constant.
bool is_random(const EventGraph::Cost& cost, const Variability& v)
{
  using Kind  = EventGraph::Cost::Kind;
  const int n = v.means().n();
  if (cost.kind == Kind::none) return false;
  if (cost.kind == Kind::size) {
    if (cost.first < 0 || cost.first > n)
      throw InputError::keyed("pipeline.delta", cost.first,
                              fmt::format("max-plus recurrence: the event graph sends this delta_i, the pipeline has "
                                          "delta_0..delta_{}",
                                          n));
    return !v.size_law(cost.first).constant();
  }
  if (cost.first < 1 || cost.last > n || cost.first > cost.last)
    throw InputError::keyed("pipeline.w", fmt::format("{}-{}", cost.first, cost.last),
                            fmt::format("max-plus recurrence: the event graph computes these stages, the pipeline "
                                        "has 1..{}",
                                        n));
  for (int i = cost.first; i <= cost.last; ++i)
    if (!v.work_law(i).constant()) return true;
  return false;
}

} // namespace

MaxPlusRun::MaxPlusRun(const EventGraph& graph, const Variability& variability, int watch)
    : graph_(graph), variability_(variability), watch_(variability.deterministic() ? std::max(0, watch) : 0)
{
  const std::size_t v = graph.transitions.size();
  std::vector<std::vector<Input>> in(v);
  for (const auto& p : graph.places) {
    in[static_cast<std::size_t>(p.to)].push_back(Input{p.from, p.tokens});
    tokens_ = std::max(tokens_, p.tokens);
  }
  depth_                                      = std::max(tokens_, watch_) + 1;
  const std::optional<std::vector<int>> order = token_free_order(graph);
  if (!order)
    throw InputError::keyed("mapping", "max-plus recurrence: the event graph has a cycle without tokens (a "
                                       "deadlock: no data set ever completes)");
  for (int t : *order) {
    const auto& list = in[static_cast<std::size_t>(t)];
    const auto& tr   = graph.transitions[static_cast<std::size_t>(t)];
    order_.push_back(Step{t, static_cast<int>(inputs_.size()), static_cast<int>(inputs_.size() + list.size()),
                          tr.output ? tr.dataset : -1, is_random(tr.cost, variability), tr.duration});
    inputs_.insert(inputs_.end(), list.begin(), list.end());
  }
  row_of_.assign(static_cast<std::size_t>(tokens_ + 1), -1);
  any_random_ = std::any_of(order_.begin(), order_.end(), [](const Step& s) { return s.random; });
  end_.assign(static_cast<std::size_t>(depth_) * v, 0.0);
  const auto l     = static_cast<std::size_t>(graph.datasets_per_round);
  const auto width = static_cast<std::size_t>(variability.means().n() + 1);
  work_.assign(2 * l * width, 0.0);
  for (std::size_t d = 0; d < l; ++d)
    for (std::size_t i = 0; i < width; ++i) {
      if (i >= 1) work_[d * width + i] = variability.means().work(static_cast<int>(i));
      work_[(l + d) * width + i] = variability.means().data(static_cast<int>(i));
    }
  pending_.assign(l, 0.0);
}

void MaxPlusRun::draw_round()
{
  if (!any_random_) return;
  const auto l         = static_cast<std::size_t>(graph_.datasets_per_round);
  const auto width     = static_cast<std::size_t>(variability_.means().n() + 1);
  const long long base = round_ * static_cast<long long>(l);
  for (std::size_t d = 0; d < l; ++d)
    variability_.values(base + static_cast<long long>(d), &work_[d * width + 1], &work_[(l + d) * width]);
}

double MaxPlusRun::random_duration(int t) const
{
  const auto& tr   = graph_.transitions[static_cast<std::size_t>(t)];
  const auto l     = static_cast<std::size_t>(graph_.datasets_per_round);
  const auto width = static_cast<std::size_t>(variability_.means().n() + 1);
  const auto d     = static_cast<std::size_t>(tr.dataset);
  if (tr.cost.kind == EventGraph::Cost::Kind::size)
    return tr.cost.fixed + work_[(l + d) * width + static_cast<std::size_t>(tr.cost.first)] / tr.cost.rate;
  double amount = 0; // added in stage order, as Variability::work(first, last, k)
  for (int i = tr.cost.first; i <= tr.cost.last; ++i)
    amount += work_[d * width + static_cast<std::size_t>(i)];
  return tr.cost.fixed + amount / tr.cost.rate;
}

void MaxPlusRun::run_round()
{
  const auto v = graph_.transitions.size();
  draw_round();
  for (int m = 0; m <= tokens_; ++m) // integer divisions once per round, not per place
    row_of_[static_cast<std::size_t>(m)] = round_ < m ? -1 : ((round_ - m) % depth_) * static_cast<long long>(v);
  double* row = &end_[static_cast<std::size_t>(row_of_[0])];
  for (const Step& s : order_) {
    double start = 0;
    for (int i = s.in_begin; i < s.in_end; ++i) {
      const Input& in    = inputs_[static_cast<std::size_t>(i)];
      const long long at = row_of_[static_cast<std::size_t>(in.tokens)];
      if (at >= 0) start = std::max(start, end_[static_cast<std::size_t>(at + in.from)]);
      // before round 0 the initial tokens are there at time 0
    }
    const double end                            = start + (s.random ? random_duration(s.transition) : s.fixed);
    row[static_cast<std::size_t>(s.transition)] = end;
    if (s.output >= 0) pending_[static_cast<std::size_t>(s.output)] = end;
  }
  for (double arrival : pending_) // data set k counts as output once 0..k have all arrived (DESIGN.md §3.7)
    out_.push_back(out_.empty() ? arrival : std::max(out_.back(), arrival));
  if (watch_ > 0 && !periodicity_) watch_round();
  ++round_;
}

void MaxPlusRun::watch_round()
{
  const auto v      = graph_.transitions.size();
  const double* row = &end_[static_cast<std::size_t>(round_ % depth_) * v];
  const double ulps = 64 * std::numeric_limits<double>::epsilon();
  auto repeats      = [&](long long c, double shift) {
    const double* old = &end_[static_cast<std::size_t>((round_ - c) % depth_) * v];
    for (std::size_t t = 0; t < v; ++t)
      if (std::abs(row[t] - old[t] - shift) > ulps * (std::abs(row[t]) + std::abs(shift))) return false;
    return true;
  };
  for (long long c = 1; c <= std::min<long long>(watch_, round_); ++c) {
    const double shift = row[0] - end_[static_cast<std::size_t>((round_ - c) % depth_) * v];
    if (!repeats(c, shift)) continue;
    bool same = streak_ > 0 && candidate_.cyclicity == c &&
                std::abs(candidate_.shift - shift) <= ulps * (std::abs(row[0]) + std::abs(shift));
    streak_    = same ? streak_ + 1 : 1;
    candidate_ = same ? candidate_ : StatePeriodicity{round_ - c, static_cast<int>(c), shift};
    // the next round reads the last `tokens_` rounds: once they all repeat, every later round does
    if (streak_ >= std::max(tokens_, 1)) periodicity_ = candidate_;
    return;
  }
  streak_ = 0;
}

void MaxPlusRun::run_until(long long datasets)
{
  if (datasets > static_cast<long long>(out_.capacity()))
    out_.reserve(static_cast<std::size_t>(datasets) + pending_.size());
  while (static_cast<long long>(out_.size()) < datasets)
    run_round();
}

std::optional<StatePeriodicity> MaxPlusRun::run_until_periodic(long long max_datasets)
{
  while (!periodicity_ && static_cast<long long>(out_.size()) < max_datasets)
    run_round();
  return periodicity_;
}

std::vector<double> maxplus_output_times(const EventGraph& graph, const Variability& variability, long long datasets)
{
  MaxPlusRun run(graph, variability);
  run.run_until(datasets);
  std::vector<double> out = run.output_times();
  out.resize(static_cast<std::size_t>(std::max(0LL, datasets)));
  return out;
}

namespace {

/// The exact period of a deterministic run whose state became periodic, as a width-0 estimate.
PeriodEstimate periodic_estimate(const StatePeriodicity& p, int l, long long datasets)
{
  PeriodEstimate e;
  e.ok = e.periodic = true;
  e.confidence      = 1;
  e.datasets        = datasets;
  e.warmup          = p.round * l;
  e.cyclicity       = static_cast<long long>(p.cyclicity) * l;
  e.period = e.ci_lo = e.ci_hi = p.shift / static_cast<double>(e.cyclicity);
  e.reason = fmt::format("deterministic: the event graph's state repeats from round {} on, every firing {:.17g} s "
                         "later every {} round(s) of {} data set(s): exact period, interval of width 0",
                         p.round, p.shift, p.cyclicity, l);
  return e;
}

} // namespace

MaxPlusPeriod maxplus_period(const EventGraph& graph, const Variability& variability, const MaxPlusOptions& options)
{
  if (options.datasets < 2 || options.max_datasets < options.datasets || !(options.precision >= 0))
    throw InputError::keyed("simulation.datasets", options.datasets,
                            fmt::format("max-plus period (max_datasets = {}, precision = {}): expected 2 <= datasets "
                                        "<= max_datasets and precision >= 0",
                                        options.max_datasets, options.precision));
  const bool fixed = variability.deterministic();
  MaxPlusRun run(graph, variability, fixed ? 64 : 0);
  PeriodEstimateOptions estimate = options.estimate;
  estimate.window                = graph.datasets_per_round;
  estimate.deterministic         = fixed;
  MaxPlusPeriod result;
  auto keep = [&](long long n) {
    result.datasets = n;
    result.output_times.assign(run.output_times().begin(), run.output_times().begin() + static_cast<std::ptrdiff_t>(n));
  };
  if (fixed) {
    run.run_until(options.datasets);
    auto p = run.run_until_periodic(options.max_datasets);
    keep(std::min<long long>(static_cast<long long>(run.output_times().size()), options.max_datasets));
    result.estimate = p ? periodic_estimate(*p, graph.datasets_per_round, result.datasets)
                        : estimate_period(result.output_times, estimate);
    if (!p) result.estimate.reason += fmt::format("; no periodic state within {} data sets", result.datasets);
    return result;
  }
  auto estimate_over = [&](long long n, long long cooldown) { // the first n outputs less the last `cooldown`
    const long long kept = std::max(0LL, n - std::max(0LL, cooldown));
    return estimate_period(std::span(run.output_times()).first(static_cast<std::size_t>(kept)), estimate);
  };
  for (long long n = options.datasets;; n = std::min(2 * n, options.max_datasets)) {
    run.run_until(n);
    result.datasets = n;
    const bool last = options.precision <= 0 || n >= options.max_datasets; // a run that drains: its cool-down out
    result.estimate = estimate_over(n, last && options.cooldown ? options.cooldown(n) : 0);
    if (options.precision <= 0 || (result.estimate.ok && result.estimate.relative_half_width() <= options.precision))
      break;
    if (n >= options.max_datasets) {
      result.estimate.reason +=
          fmt::format("; precision {} not reached within {} data sets (relative half-width {:.3g})", options.precision,
                      n, result.estimate.relative_half_width());
      break;
    }
  }
  keep(result.datasets);
  return result;
}

} // namespace pipesim
