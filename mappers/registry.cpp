// Mapper registry (DESIGN.md §5): mappers register by stable name with their metadata; run_mapper checks, runs and
// times them.
#include "mappers/mapper.hpp"

#include "base/input_error.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <limits>
#include <stdexcept>

namespace pipesim {

MapperRegistry& MapperRegistry::instance()
{
  // Function-local static: safe to use from other translation units' static registration objects.
  static MapperRegistry registry;
  return registry;
}

void MapperRegistry::add(MapperFactory factory)
{
  // A mapper without factory or two under one name are programming errors, not bad input.
  if (not factory) throw std::logic_error("a mapper registered without a factory");
  MapperInfo info  = factory()->info();
  std::string name = info.name;
  if (not entries_.emplace(name, Entry{std::move(info), std::move(factory)}).second)
    throw std::logic_error(fmt::format("mapper '{}' is already registered", name));
}

void MapperRegistry::replace(MapperFactory factory)
{
  if (not factory) throw std::logic_error("a mapper registered without a factory");
  MapperInfo info = factory()->info();
  auto it         = entries_.find(info.name);
  if (it == entries_.end()) throw std::logic_error(fmt::format("mapper '{}' is not registered", info.name));
  it->second = Entry{std::move(info), std::move(factory)};
}

std::unique_ptr<Mapper> MapperRegistry::create(const std::string& name) const
{
  auto it = entries_.find(name);
  if (it == entries_.end())
    throw InputError::keyed("mapper", name, fmt::format("unknown mapper (known: {})", fmt::join(names(), ", ")));
  return it->second.factory();
}

const MapperInfo& MapperRegistry::info(const std::string& name) const
{
  if (const MapperInfo* info = find(name)) return *info;
  throw InputError::keyed("mapper", name, fmt::format("unknown mapper (known: {})", fmt::join(names(), ", ")));
}

const MapperInfo* MapperRegistry::find(const std::string& name) const
{
  auto it = entries_.find(name);
  return it == entries_.end() ? nullptr : &it->second.info;
}

std::vector<std::string> MapperRegistry::names() const
{
  std::vector<std::string> result;
  result.reserve(entries_.size());
  for (const auto& [name, entry] : entries_)
    result.push_back(name);
  return result; // sorted: entries_ is an ordered map
}

std::vector<MapperInfo> MapperRegistry::infos() const
{
  std::vector<MapperInfo> result;
  result.reserve(entries_.size());
  for (const auto& [name, entry] : entries_)
    result.push_back(entry.info);
  std::ranges::sort(result, listed_before);
  return result;
}

MapperRegistration::MapperRegistration(MapperFactory factory) { MapperRegistry::instance().add(std::move(factory)); }

std::optional<std::string> mapper_refusal(const std::string& name, const Problem& problem)
{
  if (auto reason = MapperRegistry::instance().create(name)->refuses(problem))
    return fmt::format("mapper '{}' cannot handle this problem: {}", name, *reason);
  return std::nullopt;
}

MapperResult run_mapper(const std::string& name, const Problem& problem, const MapperOptions& options)
{
  auto mapper = MapperRegistry::instance().create(name);
  problem.pipeline.validate();
  if (auto refusal = mapper_refusal(name, problem)) // about `mapping` for the explicit mapper: the mapping refused
    throw name == explicit_mapper_name ? InputError::keyed("mapping", *refusal)
                                       : InputError::keyed("mapper", name, *refusal);
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
