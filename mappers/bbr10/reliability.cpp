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

std::optional<std::string> refuses_reliability(const Problem& problem)
{
  if (problem.objective.kind != Objective::Kind::min_failure_probability || problem.objective.period_bound <= 0)
    return std::string("it minimises F under a period bound (objective: {minimize: failure_probability, "
                       "period_bound: P})");
  if (problem.model != CommModel::multi_port)
    return fmt::format("seed 004's heuristics bound the multi-port period, not {}", to_string(problem.model));
  if (problem.platform.p() == 0) return std::string("the platform has no processor");
  return std::nullopt;
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
  std::string name() const override { return heuristic_.name(); }
  std::string description() const override
  {
    return heuristic_.class2 ? "seed 004 §6.3 class 2: processor sets first, then stages (min F under P_max)"
           : heuristic_.intervals
               ? "seed 004 §6.2 class 1 restricted to interval mappings (min F under P_max)"
               : "seed 004 §6.2 class 1: stage subsets first, then processors, then fusion (min F under P_max)";
  }
  std::optional<std::string> refuses(const Problem& problem) const override { return refuses_reliability(problem); }
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
  std::string name() const override { return intervals_ ? "bbr10.best.interval" : "bbr10.best"; }
  std::string description() const override
  {
    return intervals_ ? "the best of seed 004's 21 interval-restricted heuristics (min F under P_max)"
                      : "the best of seed 004's 44 reliability heuristics, as §7.2 recommends (min F under P_max)";
  }
  std::optional<std::string> refuses(const Problem& problem) const override { return refuses_reliability(problem); }
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
    MapperRegistry::instance().add(heuristic.name(),
                                   [heuristic] { return std::make_unique<ReliabilityMapper>(heuristic); });
  MapperRegistry::instance().add("bbr10.best", [] { return std::make_unique<BestReliabilityMapper>(false); });
  MapperRegistry::instance().add("bbr10.best.interval", [] { return std::make_unique<BestReliabilityMapper>(true); });
  return true;
}();

} // namespace

} // namespace pipesim
