// Mapper metadata: serialisation, listing order, and the refusals decided from it (one message per cause).
#include "mappers/mapper_info.hpp"

#include "mappers/mapper.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <nlohmann/json.hpp>
#include <tuple>

namespace pipesim {

const char* paper_title(Paper paper)
{
  switch (paper) {
  case Paper::br07:
    return "Benoit, Robert: Mapping pipeline skeletons onto heterogeneous platforms (JPDC 2008)";
  case Paper::sv95:
    return "Subhlok, Vondran: Optimal mapping of sequences of data parallel tasks (PPoPP 1995)";
  case Paper::hedpm:
    return "Moreno, Sikora, César, Sorribes, Margalef: HeDPM, load balancing of linear pipeline applications on "
           "heterogeneous systems (J. Supercomputing 2017)";
  case Paper::bbr10:
    return "Benoit, Bouziane, Robert: Assessing general mappings for period/reliability optimization of streaming "
           "applications (LIP RR 2010-20)";
  case Paper::pipesim:
    return "beyond the four papers (exact solvers past their methods, exhaustive references, samplers)";
  case Paper::python:
    return "written in Python by the user of the pipesim module (@pipesim.mapper, docs/python.md)";
  }
  return "?";
}

namespace {
template <typename E>
nlohmann::json names_of(const std::vector<E>& values)
{
  nlohmann::json out = nlohmann::json::array();
  for (E value : values)
    out.push_back(to_string(value));
  return out;
}

/// "a", "a or b", "a, b or c".
template <typename E>
std::string alternatives(const std::vector<E>& values)
{
  std::string out;
  for (std::size_t i = 0; i < values.size(); ++i)
    out += fmt::format("{}{}", i == 0 ? "" : i + 1 == values.size() ? " or " : ", ", to_string(values[i]));
  return out;
}

/// "" or " (restriction)".
std::string because(const MapperInfo& info) { return info.restriction.empty() ? "" : " (" + info.restriction + ")"; }

/// What a mapper that minimises `objective` minimises, in a sentence.
const char* minimised(MapperObjective objective)
{
  switch (objective) {
  case MapperObjective::period:
    return "the period";
  case MapperObjective::production_time:
    return "HeDPM's production time";
  case MapperObjective::task_chain_period:
    return "the task chain's period";
  case MapperObjective::failure_probability:
    return "the failure probability F under a period bound";
  case MapperObjective::scenario:
  case MapperObjective::none:
    break;
  }
  return "nothing";
}

std::optional<std::string> objective_refusal(const MapperInfo& info, const Objective& objective)
{
  using Kind = Objective::Kind;
  if (info.objective == MapperObjective::scenario) return std::nullopt;
  if (info.objective == MapperObjective::failure_probability) {
    if (objective.kind != Kind::min_failure_probability)
      return fmt::format("it minimises {} (objective minimize: {}, period_bound: P_max), not {}",
                         minimised(info.objective), to_string(Kind::min_failure_probability),
                         to_string(objective.kind));
    if (!(objective.period_bound > 0))
      return fmt::format("it minimises {}: period_bound {} is not a period > 0", minimised(info.objective),
                         objective.period_bound);
    return std::nullopt;
  }
  if (objective.kind == Kind::min_period) return std::nullopt;
  if (info.objective == MapperObjective::none)
    return fmt::format("it draws mappings for the objective minimize: {} only, not {}", to_string(Kind::min_period),
                       to_string(objective.kind));
  return fmt::format("it minimises {} (objective minimize: {}), not {}", minimised(info.objective),
                     to_string(Kind::min_period), to_string(objective.kind));
}
} // namespace

nlohmann::json to_json(const MapperInfo& info)
{
  nlohmann::json j = {{"name", info.name},
                      {"description", info.description},
                      {"paper", to_string(info.paper)},
                      {"family", to_string(info.family)},
                      {"objective", to_string(info.objective)},
                      {"models", names_of(info.models)},
                      {"platform_classes", names_of(info.platform_classes)},
                      {"input", to_string(info.input)},
                      {"mapping", to_string(info.mapping)},
                      {"exact", info.exact},
                      {"complexity", info.complexity}};
  if (!info.restriction.empty()) j["restriction"] = info.restriction;
  return j;
}

bool listed_before(const MapperInfo& a, const MapperInfo& b)
{
  return std::tie(a.paper, a.family, a.rank, a.name) < std::tie(b.paper, b.family, b.rank, b.name);
}

namespace {
/// "period; one-port; every platform class; interval mappings; exact; O(n)".
std::string facts(const MapperInfo& info)
{
  std::string out = fmt::format("objective {}; {}", to_string(info.objective), alternatives(info.models));
  out += info.platform_classes.size() == enum_values<PlatformClass>().size()
             ? "; every platform class"
             : fmt::format("; {} platforms", alternatives(info.platform_classes));
  if (info.input != MapperInput::pipeline) out += fmt::format("; needs the scenario's {}", to_string(info.input));
  out += fmt::format("; {} mappings; {}", to_string(info.mapping), info.exact ? "exact" : "not exact");
  return info.complexity.empty() ? out : out + "; " + info.complexity;
}
} // namespace

std::string mapper_listing(const std::vector<MapperInfo>& infos)
{
  std::string out;
  for (std::size_t i = 0; i < infos.size(); ++i) {
    const MapperInfo& info = infos[i];
    bool new_paper         = i == 0 || infos[i - 1].paper != info.paper;
    if (new_paper) out += fmt::format("{}{}: {}\n", i == 0 ? "" : "\n", to_string(info.paper), paper_title(info.paper));
    if (new_paper || infos[i - 1].family != info.family) out += fmt::format("  {}\n", to_string(info.family));
    out += fmt::format("    {}  {}\n      {}\n", info.name, info.description, facts(info));
  }
  return out;
}

std::optional<std::string> mapper_info_refusal(const MapperInfo& info, const Problem& problem)
{
  if (info.input == MapperInput::task_chain && !problem.task_chain)
    return "the problem has no task chain (sv95's cost model): give `task_chain:` in the scenario";
  if (info.input == MapperInput::explicit_mapping && !problem.explicit_mapping)
    return "the problem has no explicit mapping (give one in the scenario)";
  // a task chain's problem carries a stand-in pipeline of w = 0 and delta = 0 (task_chain_pipeline): a mapper of
  // pipelines would map zeros, which the chain's evaluator (sv95 §2.2) then prices (issue 31: `map --mapper hedpm`
  // printed 2.24 on a chain whose HeDPM trace was all zeros)
  if (info.input == MapperInput::pipeline && problem.task_chain)
    return "the scenario is a task_chain (sv95's data-parallel tasks, priced by their response functions), and this "
           "mapper maps a pipeline's w and delta: it would map the chain's stand-in pipeline, whose w and delta are "
           "all 0; use an sv95.* mapper or an explicit mapping";
  if (auto why = objective_refusal(info, problem.objective)) return why;
  if (std::ranges::find(info.models, problem.model) == info.models.end())
    return fmt::format("it accepts the {} model{}, not {}", alternatives(info.models), because(info),
                       to_string(problem.model));
  if (problem.platform.p() == 0) return "the platform has no processor";
  PlatformClass platform_class = problem.platform.classify();
  if (std::ranges::find(info.platform_classes, platform_class) == info.platform_classes.end())
    return fmt::format("the platform is {}; it accepts {} platforms{}", to_string(platform_class),
                       alternatives(info.platform_classes), because(info));
  return std::nullopt;
}

std::optional<std::string> Mapper::refuses(const Problem& problem) const
{
  if (auto why = mapper_info_refusal(info(), problem)) return why;
  return instance_refusal(problem);
}

} // namespace pipesim
