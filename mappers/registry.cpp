// Mapper registry (DESIGN.md §5): mappers register by stable name; run_mapper checks, runs and times them.
#include "mappers/mapper.hpp"

#include "base/input_error.hpp"

#include <chrono>
#include <cmath>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <limits>
#include <stdexcept>

namespace pipesim {

const char* to_string(CommModel model)
{
  switch (model) {
  case CommModel::one_port:
    return "one-port";
  case CommModel::multi_port:
    return "multi-port";
  }
  return "?";
}

const char* to_string(SolveStatus status)
{
  switch (status) {
  case SolveStatus::optimal:
    return "optimal";
  case SolveStatus::feasible:
    return "feasible";
  case SolveStatus::infeasible:
    return "infeasible";
  case SolveStatus::time_limit:
    return "time limit";
  }
  return "?";
}

MapperRegistry& MapperRegistry::instance()
{
  // Function-local static: safe to use from other translation units' static registration objects.
  static MapperRegistry registry;
  return registry;
}

void MapperRegistry::add(const std::string& name, MapperFactory factory)
{
  // Two mappers under one name is a programming error, not bad input.
  if (not factory) throw std::logic_error(fmt::format("mapper '{}' registered without a factory", name));
  if (not factories_.emplace(name, std::move(factory)).second)
    throw std::logic_error(fmt::format("mapper '{}' is already registered", name));
}

std::unique_ptr<Mapper> MapperRegistry::create(const std::string& name) const
{
  auto it = factories_.find(name);
  if (it == factories_.end())
    throw InputError(fmt::format("unknown mapper '{}' (known: {})", name, fmt::join(names(), ", ")));
  return it->second();
}

std::vector<std::string> MapperRegistry::names() const
{
  std::vector<std::string> result;
  result.reserve(factories_.size());
  for (const auto& [name, factory] : factories_)
    result.push_back(name);
  return result; // sorted: factories_ is an ordered map
}

MapperRegistration::MapperRegistration(const std::string& name, MapperFactory factory)
{
  MapperRegistry::instance().add(name, std::move(factory));
}

MapperResult run_mapper(const std::string& name, const Problem& problem, const MapperOptions& options)
{
  auto mapper = MapperRegistry::instance().create(name);
  problem.pipeline.validate();
  if (auto reason = mapper->refuses(problem))
    throw InputError(fmt::format("mapper '{}' cannot handle this problem: {}", name, *reason));
  auto start                            = std::chrono::steady_clock::now();
  MapperResult result                   = mapper->map(problem, options);
  std::chrono::duration<double> seconds = std::chrono::steady_clock::now() - start;
  result.statistics["seconds"]          = seconds.count();
  if (!result.mapping.intervals.empty())
    if (auto pair = unreachable_pair(result.mapping, problem.platform)) {
      result.note      = fmt::format("the mapping needs {} -> {}, which has no route",
                                     problem.platform.node_name(pair->first), problem.platform.node_name(pair->second));
      result.mapping   = Mapping{};
      result.status    = SolveStatus::infeasible;
      result.objective = unbounded;
      result.lower_bound.reset();
    }
  if (result.status == SolveStatus::optimal) result.lower_bound = result.objective;
  return result;
}

std::optional<double> relative_gap(const MapperResult& result)
{
  if (not result.lower_bound) return std::nullopt;
  if (not std::isfinite(result.objective)) return std::numeric_limits<double>::infinity();
  if (result.objective == *result.lower_bound) return 0.0;
  return (result.objective - *result.lower_bound) / std::abs(result.objective);
}

} // namespace pipesim
