// HeDPM, hedpm Algorithm 4.1: sorting (eqs. (3)-(4)), Tideal (eq. (6)), matching with gathering and replication.
#include "mappers/hedpm/hedpm.hpp"

#include "model/hedpm/average_times.hpp"
#include "model/hedpm/production_time.hpp"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <fmt/format.h>
#include <numeric>

namespace pipesim {

namespace {
const MapperRegistration hedpm_registration{[] { return std::make_unique<HedpmMapper>(); }};

/// Eq. (3) order: stages by decreasing time on the average processor, ties by stage index.
std::vector<int> sorted_stages(const Pipeline& pipeline, const Platform& platform)
{
  std::vector<int> all(static_cast<std::size_t>(platform.p()));
  std::iota(all.begin(), all.end(), 0);
  double s_mean      = hedpm_mean_speed(platform, all);
  HedpmMeanLink link = hedpm_mean_link(platform, all);
  std::vector<double> time(static_cast<std::size_t>(pipeline.n() + 1));
  std::vector<int> stages(static_cast<std::size_t>(pipeline.n()));
  std::iota(stages.begin(), stages.end(), 1);
  for (int n : stages)
    time[static_cast<std::size_t>(n)] = hedpm_eq3_stage_time(pipeline, n, s_mean, link);
  std::stable_sort(stages.begin(), stages.end(),
                   [&](int a, int b) { return time[static_cast<std::size_t>(a)] > time[static_cast<std::size_t>(b)]; });
  return stages;
}

/// Eq. (4) order: processors by increasing time of the average stage, ties by index.
std::vector<int> sorted_processors(const Pipeline& pipeline, const Platform& platform)
{
  std::vector<int> all(static_cast<std::size_t>(platform.p()));
  std::iota(all.begin(), all.end(), 0);
  double w_mean = pipeline.work(1, pipeline.n()) / pipeline.n();
  double d_sum  = 0;
  for (int n = 1; n <= pipeline.n(); ++n)
    d_sum += pipeline.data(n);
  double d_mean = d_sum / pipeline.n();
  std::vector<double> time;
  for (int u : all)
    time.push_back(hedpm_eq4_processor_time(platform.speed(u), w_mean, d_mean,
                                            hedpm_mean_link_of(platform, u, all, true),
                                            hedpm_mean_link_of(platform, u, all, false)));
  std::vector<int> processors = all;
  std::stable_sort(processors.begin(), processors.end(),
                   [&](int a, int b) { return time[static_cast<std::size_t>(a)] < time[static_cast<std::size_t>(b)]; });
  return processors;
}

/// The matching state of Algorithm 4.1's third step.
class Matcher {
public:
  explicit Matcher(const Problem& problem) : pipeline_(problem.pipeline), platform_(problem.platform)
  {
    stages_     = sorted_stages(pipeline_, platform_);
    processors_ = sorted_processors(pipeline_, platform_);
    owner_.assign(static_cast<std::size_t>(pipeline_.n() + 2), -1);
    rank_.assign(static_cast<std::size_t>(pipeline_.n() + 2), 0);
    for (std::size_t k = 0; k < stages_.size(); ++k)
      rank_[static_cast<std::size_t>(stages_[k])] = static_cast<int>(k);
  }

  bool done() const { return stages_.empty(); }
  const std::vector<int>& stages() const { return stages_; }
  const std::vector<int>& processors() const { return processors_; }

  /// T of [first, last] on the ordered replicas `list` (eq. (1) over eq. (2) times).
  double time(int first, int last, const std::vector<int>& list) const
  {
    std::vector<double> times;
    double work = pipeline_.work(first, last);
    for (int r = 0; r < static_cast<int>(list.size()); ++r) {
      double in  = side_time(first - 1, list, r, pipeline_.data(first - 1), true);
      double out = side_time(last + 1, list, r, pipeline_.data(last), false);
      times.push_back(hedpm_replica_time(in, work, platform_.speed(list[static_cast<std::size_t>(r)]), out));
    }
    return hedpm_interval_time(times);
  }

  /// Runs of unmatched stages left once [first, last] is matched.
  int runs_after(int first, int last) const
  {
    int runs      = 0;
    bool in_a_run = false;
    for (int n = 1; n <= pipeline_.n(); ++n) {
      bool free = owner_[static_cast<std::size_t>(n)] < 0 && (n < first || n > last);
      runs += free && not in_a_run ? 1 : 0;
      in_a_run = free;
    }
    return runs;
  }

  /// True when `replicas` processors may be matched with [first, last]: the others cover the runs left.
  bool covers(int first, int last, int replicas) const
  {
    return static_cast<int>(processors_.size()) - replicas >= runs_after(first, last);
  }

  /// The unmatched stage adjacent to [first, last] that comes first in the stage list, or 0.
  int neighbour(int first, int last) const
  {
    int best = 0;
    for (int n : {first - 1, last + 1})
      if (n >= 1 && n <= pipeline_.n() && owner_[static_cast<std::size_t>(n)] < 0 &&
          (best == 0 || rank_[static_cast<std::size_t>(n)] < rank_[static_cast<std::size_t>(best)]))
        best = n;
    return best;
  }

  void commit(int first, int last, const std::vector<int>& list)
  {
    auto index = static_cast<int>(lists_.size());
    lists_.push_back(list);
    bounds_.emplace_back(first, last);
    for (int n = first; n <= last; ++n) {
      owner_[static_cast<std::size_t>(n)] = index;
      stages_.erase(std::find(stages_.begin(), stages_.end(), n));
    }
    for (int u : list)
      processors_.erase(std::find(processors_.begin(), processors_.end(), u));
  }

  void extend_last(int u)
  {
    lists_.back().push_back(u);
    processors_.erase(std::find(processors_.begin(), processors_.end(), u));
  }
  const std::vector<int>& last_list() const { return lists_.back(); }
  std::pair<int, int> last_bounds() const { return bounds_.back(); }

  /// The mapping (intervals in stage order) and the index of the last match in it.
  std::pair<Mapping, int> mapping() const
  {
    std::vector<int> order(lists_.size());
    std::iota(order.begin(), order.end(), 0);
    std::sort(order.begin(), order.end(), [&](int a, int b) {
      return bounds_[static_cast<std::size_t>(a)].first < bounds_[static_cast<std::size_t>(b)].first;
    });
    Mapping mapping;
    int last = 0;
    for (int k : order) {
      Interval in;
      std::tie(in.first, in.last) = bounds_[static_cast<std::size_t>(k)];
      for (int u : lists_[static_cast<std::size_t>(k)])
        in.replicas.push_back({u});
      if (in.replicas.size() > 1) in.replication = Replication::deal;
      if (k + 1 == static_cast<int>(lists_.size())) last = mapping.m();
      mapping.intervals.push_back(std::move(in));
    }
    return {mapping, last};
  }

private:
  /// in (`incoming`) or out term of replica r of `list`, whose neighbour is stage `n` (0: P_in, n + 1: P_out).
  double side_time(int n, const std::vector<int>& list, int r, double bytes, bool incoming) const
  {
    std::vector<int> node;
    if (n == 0 || n == pipeline_.n() + 1) {
      node = {n == 0 ? platform_.in() : platform_.out()};
    } else if (int j = owner_[static_cast<std::size_t>(n)]; j >= 0) {
      node = lists_[static_cast<std::size_t>(j)];
    } else { // unknown neighbour: the mean link to the processors left (hedpm eqs. (3)-(4))
      std::vector<int> others;
      for (int v : processors_)
        if (std::find(list.begin(), list.end(), v) == list.end()) others.push_back(v);
      if (others.empty()) { // none left: every other processor
        for (int v = 0; v < platform_.p(); ++v)
          if (std::find(list.begin(), list.end(), v) == list.end()) others.push_back(v);
      }
      int u = list[static_cast<std::size_t>(r)];
      return hedpm_transfer(hedpm_mean_link_of(platform_, u, others, incoming), bytes);
    }
    return incoming ? hedpm_in_time(platform_, node, list, r, bytes) : hedpm_out_time(platform_, list, r, node, bytes);
  }

  const Pipeline& pipeline_;
  const Platform& platform_;
  std::vector<int> stages_;     // unmatched, eq. (3) order
  std::vector<int> processors_; // unmatched, eq. (4) order
  std::vector<int> owner_;      // match index per stage 1..n, -1 when unmatched
  std::vector<int> rank_;       // position of each stage in the initial stage list
  std::vector<std::vector<int>> lists_;
  std::vector<std::pair<int, int>> bounds_;
};

bool closer(double candidate, double current, double tideal)
{
  return std::abs(candidate - tideal) < std::abs(current - tideal);
}

/// Third step for one iteration: the match of the first stage and processor of the lists.
HedpmIteration match_once(Matcher& matcher, double tideal)
{
  HedpmIteration it{matcher.processors(), matcher.stages(), tideal, 0, 0, {}, 0};
  const double high = (1 + hedpm_band) * tideal;
  const double low  = (1 - hedpm_band) * tideal;
  int first         = matcher.stages().front();
  int last          = first;
  std::vector<int> list{matcher.processors().front()};
  double t    = matcher.time(first, last, list);
  bool forced = false;
  while (not matcher.covers(first, last, 1)) { // processors would run out: gather past the band
    int n = matcher.neighbour(first, last);
    assert(n != 0);
    first  = std::min(first, n);
    last   = std::max(last, n);
    t      = matcher.time(first, last, list);
    forced = true;
  }
  if (t > high && not forced) {
    while (t > high && list.size() < matcher.processors().size() &&
           matcher.covers(first, last, static_cast<int>(list.size()) + 1)) {
      std::vector<int> more = list;
      more.push_back(matcher.processors()[list.size()]);
      double candidate = matcher.time(first, last, more);
      if (not closer(candidate, t, tideal)) break;
      list = std::move(more);
      t    = candidate;
    }
  } else if (t < low) {
    while (t < low) {
      int n = matcher.neighbour(first, last);
      if (n == 0) break;
      double candidate = matcher.time(std::min(first, n), std::max(last, n), list);
      if (not closer(candidate, t, tideal)) break;
      first = std::min(first, n);
      last  = std::max(last, n);
      t     = candidate;
    }
  }
  matcher.commit(first, last, list);
  it.first      = first;
  it.last       = last;
  it.processors = list;
  it.tmatch     = t;
  return it;
}

/// Processors left once every stage is matched join the last match (a single stage) while each lowers its T.
std::vector<int> use_leftovers(Matcher& matcher)
{
  std::vector<int> added;
  auto [first, last] = matcher.last_bounds();
  if (first != last) return added;
  double t = matcher.time(first, last, matcher.last_list());
  while (not matcher.processors().empty()) {
    std::vector<int> more = matcher.last_list();
    more.push_back(matcher.processors().front());
    double candidate = matcher.time(first, last, more);
    if (not(candidate < t)) break;
    added.push_back(more.back());
    matcher.extend_last(more.back());
    t = candidate;
  }
  return added;
}

} // namespace

HedpmRun hedpm_algorithm41(const Problem& problem, double objective)
{
  assert(not hedpm_refuses(problem));
  Matcher matcher(problem);
  HedpmRun run;
  while (not matcher.done()) {
    double tideal = objective > 0 ? objective
                                  : hedpm_eq6_ideal_time(problem.pipeline, problem.platform, matcher.stages(),
                                                         matcher.processors());
    run.iterations.push_back(match_once(matcher, tideal));
  }
  run.leftover                             = use_leftovers(matcher);
  std::tie(run.mapping, run.last_interval) = matcher.mapping();
  return run;
}

MapperInfo hedpm_info(std::string name, std::string description, Paper paper, MapperFamily family, bool exact,
                      std::string complexity)
{
  MapperInfo info;
  info.name        = std::move(name);
  info.description = std::move(description);
  info.paper       = paper;
  info.family      = family;
  info.objective   = MapperObjective::production_time;
  info.models      = {CommModel::one_port};
  info.mapping     = MappingRule::interval;
  info.exact       = exact;
  info.complexity  = std::move(complexity);
  info.restriction = "HeDPM's t(n, p) adds receive, compute and send: hedpm §3's synchronous communications";
  return info;
}

std::optional<std::string> hedpm_refuses(const Problem& problem)
{
  for (int u = 0; u < problem.platform.p(); ++u)
    if (not(problem.platform.speed(u) > 0))
      return fmt::format("processor {} has speed {}; speeds must be positive", problem.platform.node_name(u),
                         problem.platform.speed(u));
  return std::nullopt;
}

MapperResult hedpm_result(const Problem& problem, const HedpmRun& run)
{
  MapperResult result;
  result.mapping                  = run.mapping;
  result.status                   = SolveStatus::feasible;
  result.objective                = hedpm_production_time(problem.pipeline, problem.platform, run.mapping);
  result.statistics["iterations"] = static_cast<double>(run.iterations.size());
  result.statistics["tideal"]     = run.iterations.front().tideal;
  double replicated               = 0;
  double gathered                 = 0;
  for (const auto& in : run.mapping.intervals) {
    replicated += in.replicas.size() > 1 ? 1 : 0;
    gathered += in.stages() > 1 ? 1 : 0;
  }
  result.statistics["replicated"]      = replicated;
  result.statistics["gathered"]        = gathered;
  result.statistics["processors_used"] = static_cast<double>(run.mapping.processors().size());
  return result;
}

MapperInfo HedpmMapper::info() const
{
  return hedpm_info("hedpm",
                    "hedpm Algorithm 4.1: slowest stages on the fastest processors, fast stages gathered and slow ones "
                    "replicated around the ideal production time",
                    Paper::hedpm, MapperFamily::heuristic, false, "O(N (P^2 + N + R P)) per run");
}

MapperResult HedpmMapper::map(const Problem& problem, const MapperOptions& /*options*/) const
{
  return hedpm_result(problem, hedpm_algorithm41(problem));
}

Mapping hedpm_interval_mapping(const std::vector<std::pair<int, int>>& bounds,
                               const std::vector<std::vector<int>>& lists)
{
  Mapping mapping;
  for (std::size_t j = 0; j < lists.size(); ++j) {
    Interval in;
    std::tie(in.first, in.last) = bounds[j];
    for (int u : lists[j])
      in.replicas.push_back({u});
    if (in.replicas.size() > 1) in.replication = Replication::deal;
    mapping.intervals.push_back(std::move(in));
  }
  return mapping;
}
} // namespace pipesim
