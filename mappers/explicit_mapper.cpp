// The `explicit` mapper: validates and evaluates the mapping given with the problem.
#include "mappers/explicit_mapper.hpp"

#include "model/analysis.hpp"
#include "model/analytic.hpp"
#include "model/sv95/response.hpp"

namespace pipesim {

namespace {
const MapperRegistration explicit_mapper_registration{[] { return std::make_unique<ExplicitMapper>(); }};
} // namespace

MapperInfo ExplicitMapper::info() const
{
  MapperInfo info;
  info.name        = explicit_mapper_name;
  info.description = "the mapping given in the scenario, validated and evaluated analytically";
  info.paper       = Paper::pipesim;
  info.family      = MapperFamily::given;
  info.objective   = MapperObjective::scenario;
  info.input       = MapperInput::explicit_mapping;
  info.mapping     = MappingRule::general;
  info.complexity  = "that of validate() and of the analytic evaluation";
  return info;
}

MapperResult ExplicitMapper::map(const Problem& problem, const MapperOptions& /*options*/) const
{
  const Mapping& mapping = problem.explicit_mapping.value();
  validate(mapping, problem.pipeline, problem.platform);

  MapperResult result;
  result.mapping = mapping;
  result.status  = SolveStatus::feasible;
  if (problem.task_chain) { // sv95: the mapping's modules and §2.2's period (docs/sv95.md)
    std::vector<Sv95Module> modules = sv95_modules(mapping);
    check_modules(*problem.task_chain, modules, problem.platform.p());
    Sv95Evaluation e                = sv95_evaluate(*problem.task_chain, modules);
    result.objective                = e.period;
    result.statistics["period"]     = e.period;
    result.statistics["throughput"] = e.throughput;
    result.statistics["bottleneck"] = e.bottleneck + 1;
    result.statistics["processors"] = e.processors;
    return result;
  }

  AnalyticSummary analytic                 = problem.model == CommModel::multi_port
                                                 ? analyze_multiport(problem.pipeline, problem.platform, mapping)
                                                 : analyze_oneport(problem.pipeline, problem.platform, mapping);
  result.statistics["period"]              = analytic.period;
  result.statistics["latency"]             = analytic.latency;
  result.statistics["failure_probability"] = analytic.failure_probability;
  if (problem.objective.kind == Objective::Kind::min_period) {
    result.objective = analytic.period;
  } else {
    result.objective                      = bbr10_eq2_failure_probability(problem.platform, mapping);
    result.statistics["period_bound_met"] = analytic.period <= problem.objective.period_bound ? 1.0 : 0.0;
  }
  return result;
}

} // namespace pipesim
