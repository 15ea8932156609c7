#include "mappers/bbr10/reliability.hpp"

#include "mappers/bbr10/bal.hpp"
#include "mappers/bbr10/bct.hpp"
#include "mappers/bbr10/small.hpp"
#include "mappers/bbr10/snake.hpp"
#include "model/analytic.hpp"
#include "model/bbr10/worst_case_period.hpp"

#include <fmt/format.h>
#include <limits>

namespace pipesim {

std::string ReliabilityHeuristic::name() const
{
  if (class2) return stage_order == StageOrder::output_data ? "bbr10.partprc" : "bbr10.partprw";
  const char* suffix = order == SubsetOrder::output_data ? "-c" : "-w";
  std::string step;
  switch (mapping) {
  case SubsetMapping::small:
    step = "small";
    break;
  case SubsetMapping::snake:
    step = std::string("snake") + suffix;
    break;
  case SubsetMapping::bct:
    step = std::string("bct") + suffix;
    break;
  case SubsetMapping::bal:
    step = std::string("bal") + suffix;
    break;
  }
  return fmt::format("bbr10.{}-{}{}", to_string(partition), step, intervals ? ".interval" : "");
}

std::vector<ReliabilityHeuristic> bbr10_reliability_heuristics()
{
  std::vector<ReliabilityHeuristic> out;
  for (bool intervals : {false, true})
    for (StagePartition partition :
         {StagePartition::communication, StagePartition::random, StagePartition::computation}) {
      ReliabilityHeuristic h;
      h.partition = partition;
      h.intervals = intervals;
      h.mapping   = SubsetMapping::small;
      out.push_back(h);
      for (SubsetMapping mapping : {SubsetMapping::snake, SubsetMapping::bct, SubsetMapping::bal})
        for (SubsetOrder order : {SubsetOrder::output_data, SubsetOrder::workload}) {
          h.mapping = mapping;
          h.order   = order;
          out.push_back(h);
        }
    }
  for (StageOrder order : {StageOrder::output_data, StageOrder::workload}) {
    ReliabilityHeuristic h;
    h.class2      = true;
    h.stage_order = order;
    out.push_back(h);
  }
  return out;
}

std::optional<SubsetState> bbr10_run_reliability_heuristic(const ReliabilityHeuristic& heuristic,
                                                           const Problem& problem, std::uint64_t seed, PeriodTest test)
{
  std::optional<SubsetState> best;
  int count = std::min(problem.pipeline.n(), problem.platform.p());
  for (int l = 1; l <= count; ++l) {
    Rng rng(seed + static_cast<std::uint64_t>(l) * 0x9E3779B97F4A7C15ULL);
    SubsetState state(problem, problem.objective.period_bound, test, seed);
    if (heuristic.class2)
      state = bbr10_partition_processors(problem, heuristic.stage_order, l, test, seed);
    else {
      auto partition = bbr10_partition_stages(heuristic.partition, problem.pipeline, l, heuristic.intervals, rng);
      state.set_partition(partition, bbr10_subset_count(partition));
      switch (heuristic.mapping) {
      case SubsetMapping::small:
        bbr10_small(state, rng, heuristic.intervals);
        break;
      case SubsetMapping::snake:
        bbr10_snake(state, heuristic.order, heuristic.intervals);
        break;
      case SubsetMapping::bct:
        bbr10_bct(state, heuristic.order, heuristic.intervals);
        break;
      case SubsetMapping::bal:
        bbr10_bal(state, heuristic.order, heuristic.intervals);
        break;
      }
    }
    if (state.complete() && (!best || state.failure_probability() < best->failure_probability()))
      best = std::move(state);
  }
  return best;
}

namespace {

/// What the reliability heuristics share: bbr10, F under P_max, the multi-port model, every platform class.
MapperInfo reliability_info(std::string name, std::string description, MapperFamily family, bool intervals,
                            std::string complexity, int rank)
{
  MapperInfo info;
  info.name        = std::move(name);
  info.description = std::move(description);
  info.paper       = Paper::bbr10;
  info.family      = family;
  info.objective   = MapperObjective::failure_probability;
  info.models      = {CommModel::multi_port};
  info.mapping     = intervals ? MappingRule::interval : MappingRule::general;
  info.complexity  = std::move(complexity);
  info.restriction = "bbr10's heuristics bound the multi-port period";
  info.rank        = rank;
  return info;
}

/// The paper's name of a class-1 mapping step: Small, Snake-c, ..., Bal-w.
std::string step_name(const ReliabilityHeuristic& h)
{
  const char* suffix = h.order == SubsetOrder::output_data ? "-c" : "-w";
  switch (h.mapping) {
  case SubsetMapping::small:
    return "Small";
  case SubsetMapping::snake:
    return std::string("Snake") + suffix;
  case SubsetMapping::bct:
    return std::string("BCT") + suffix;
  case SubsetMapping::bal:
    return std::string("Bal") + suffix;
  }
  return "?";
}

/// What a heuristic does, in the paper's words: the partition, then the mapping step.
std::string heuristic_description(const ReliabilityHeuristic& h)
{
  if (h.class2)
    return fmt::format("bbr10 §6.3 {}: processor sets of balanced reliability, then stages by decreasing {} join the "
                       "set of smallest period bound, fusion",
                       h.stage_order == StageOrder::output_data ? "PartPrc" : "PartPrw",
                       h.stage_order == StageOrder::output_data ? "output data" : "work");
  const char* part      = "";
  const char* partition = "";
  switch (h.partition) {
  case StagePartition::communication:
    part      = "PartStc";
    partition = h.intervals ? "cuts after the smallest outputs" : "subsets balancing max(work, output data)";
    break;
  case StagePartition::computation:
    part      = "PartStw";
    partition = h.intervals ? "cuts at balanced prefix work" : "subsets of balanced work";
    break;
  case StagePartition::random:
    part      = "PartStr";
    partition = h.intervals ? "random cuts" : "stages dealt at random round robin";
    break;
  }
  const char* by    = h.order == SubsetOrder::output_data ? "subsets by output data" : "subsets by work";
  std::string step  = step_name(h);
  std::string taken = "a random fitting processor per subset, then the most reliable to the least reliable subsets";
  if (h.mapping == SubsetMapping::snake)
    taken = fmt::format("processors in snake order of reliability, {}", by);
  else if (h.mapping == SubsetMapping::bct)
    taken = fmt::format("the fitting processor of biggest cycle-time, {}", by);
  else if (h.mapping == SubsetMapping::bal)
    taken = fmt::format("critical processors up to a balanced failure probability, {}", by);
  return fmt::format("bbr10 §6.2 {}-{}{}: {}; {}; fusion", part, step, h.intervals ? ", one interval per subset" : "",
                     partition, taken);
}

/// Rank of a heuristic in bbr10 Table 2's row order: Small, Snake-c, Snake-w, BCT-c, BCT-w, Bal-c, Bal-w (outer),
/// PartStc, PartStr, PartStw (inner); the interval variants first, then the general ones, then PartPrc, PartPrw.
int table2_rank(const ReliabilityHeuristic& h)
{
  if (h.class2) return 42 + (h.stage_order == StageOrder::output_data ? 0 : 1);
  int step      = h.mapping == SubsetMapping::small
                      ? 0
                      : 2 * static_cast<int>(h.mapping) - (h.order == SubsetOrder::output_data ? 1 : 0);
  int partition = h.partition == StagePartition::communication ? 0 : h.partition == StagePartition::random ? 1 : 2;
  return (h.intervals ? 0 : 21) + 3 * step + partition;
}

MapperInfo heuristic_info(const ReliabilityHeuristic& h)
{
  return reliability_info(h.name(), heuristic_description(h), MapperFamily::heuristic, h.intervals,
                          h.class2 ? "min(n, p) rounds of O(n q) period bounds, then the fusion"
                                   : "min(n, p) rounds of a partition (O(n^2 l) at most), O(p^2) fits tests and the "
                                     "fusion (O(l^2 p) fits tests)",
                          table2_rank(h));
}

MapperResult result_of(const Problem& problem, const std::optional<SubsetState>& state, PeriodTest test)
{
  MapperResult result;
  result.period_test = test;
  if (!state) {
    result.status    = SolveStatus::infeasible;
    result.objective = std::numeric_limits<double>::infinity();
    return result;
  }
  result.mapping                        = state->mapping();
  result.status                         = SolveStatus::feasible;
  result.objective                      = bbr10_eq2_failure_probability(problem.platform, result.mapping);
  result.statistics["subsets"]          = static_cast<double>(state->live_subsets().size());
  result.statistics["worst_case_bound"] = state->period_bound();
  result.statistics["processors"]       = static_cast<double>(result.mapping.processors().size());
  if (test == PeriodTest::all_alive_best_election) result.statistics["all_alive_period"] = state->period();
  return result;
}

class ReliabilityMapper : public Mapper {
public:
  explicit ReliabilityMapper(ReliabilityHeuristic heuristic) : heuristic_(heuristic) {}
  MapperInfo info() const override { return heuristic_info(heuristic_); }
  MapperResult map(const Problem& problem, const MapperOptions& options) const override
  {
    return result_of(problem, bbr10_run_reliability_heuristic(heuristic_, problem, options.seed, options.period_test),
                     options.period_test);
  }

private:
  ReliabilityHeuristic heuristic_;
};

/// bbr10.best (all 44) and bbr10.best.interval (the 21 interval variants): the smallest F (ties: first in list).
class BestReliabilityMapper : public Mapper {
public:
  explicit BestReliabilityMapper(bool intervals) : intervals_(intervals) {}
  MapperInfo info() const override
  {
    return intervals_ ? reliability_info("bbr10.best.interval",
                                         "the smallest F of bbr10's 21 heuristics restricted to interval mappings",
                                         MapperFamily::best_of, true, "the 21 heuristics", 0)
                      : reliability_info("bbr10.best", "the smallest F of bbr10's 44 heuristics, as §7.2 advises",
                                         MapperFamily::best_of, false, "the 44 heuristics", 0);
  }
  MapperResult map(const Problem& problem, const MapperOptions& options) const override
  {
    std::optional<SubsetState> best;
    int index = 0, winner = -1, tried = 0;
    for (const ReliabilityHeuristic& heuristic : bbr10_reliability_heuristics()) {
      ++index;
      if (intervals_ && !heuristic.intervals) continue;
      ++tried;
      auto state = bbr10_run_reliability_heuristic(heuristic, problem, options.seed, options.period_test);
      if (state && (!best || state->failure_probability() < best->failure_probability())) {
        best   = std::move(state);
        winner = index - 1;
      }
    }
    MapperResult result             = result_of(problem, best, options.period_test);
    result.statistics["heuristics"] = tried;
    if (winner >= 0) result.statistics["winner"] = winner; // index in bbr10_reliability_heuristics()
    return result;
  }

private:
  bool intervals_;
};

const bool registered = [] {
  for (const ReliabilityHeuristic& heuristic : bbr10_reliability_heuristics())
    MapperRegistry::instance().add([heuristic] { return std::make_unique<ReliabilityMapper>(heuristic); });
  MapperRegistry::instance().add([] { return std::make_unique<BestReliabilityMapper>(false); });
  MapperRegistry::instance().add([] { return std::make_unique<BestReliabilityMapper>(true); });
  return true;
}();

} // namespace

} // namespace pipesim
