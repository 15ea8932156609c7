// What a mapper is (paper, family, objective, what it accepts, exactness, complexity): the registry's metadata, from
// which `pipesim mappers` lists the mappers, refusals are decided and reports group their rows; nothing parses a name.
#pragma once

#include "base/enum_names.hpp"
#include "model/comm_model.hpp"
#include "model/mapping.hpp"
#include "platforms/platform.hpp"

#include <nlohmann/json_fwd.hpp>
#include <string>
#include <vector>

namespace pipesim {

/// The paper a mapper comes from, by its key in docs/references.md; `pipesim` for what goes beyond the four papers,
/// `python` for the mappers a user writes in Python (@pipesim.mapper, docs/python.md), registered at run time.
enum class Paper { br07, sv95, hedpm, bbr10, pipesim, python };
PIPESIM_ENUM_NAMES(Paper, {br07, "br07"}, {sv95, "sv95"}, {hedpm, "hedpm"}, {bbr10, "bbr10"}, {pipesim, "pipesim"},
                   {python, "python"});

/// One line naming the paper (authors, title, where), for listings; the full reference is in docs/references.md.
const char* paper_title(Paper paper);

/// How a mapper finds its mapping.
enum class MapperFamily {
  given,           // the scenario's own mapping
  random,          // seeded random samples, not optimisers
  heuristic,       // polynomial, no optimality guarantee
  best_of,         // runs several heuristics and keeps the best mapping
  dynamic_program, // a dynamic program over the stages
  integer_program, // an integer linear program solved by a MILP solver
  period_search,   // a search over candidate periods (binary search, branch and bound) with a feasibility test
  exhaustive,      // enumerates every mapping: the reference on tiny instances
  testing          // misbehaves on purpose, for tests (never in the user-facing registry)
};
PIPESIM_ENUM_NAMES(MapperFamily, {given, "given"}, {random, "random"}, {heuristic, "heuristic"}, {best_of, "best-of"},
                   {dynamic_program, "dynamic-program"}, {integer_program, "integer-program"},
                   {period_search, "period-search"}, {exhaustive, "exhaustive"}, {testing, "testing"});

/// What a mapper minimises (the value of MapperResult::objective), hence the scenario objective it accepts: every
/// one but `failure_probability` (and `scenario`, which takes either) needs `minimize: period`.
enum class MapperObjective {
  period,              // the mapping's period, br07 eq. (2) (one-port)
  production_time,     // HeDPM's predicted production time (hedpm eqs. (1)-(4), model/hedpm/)
  task_chain_period,   // the period of the task chain's response functions (sv95 §2.2)
  failure_probability, // F (bbr10 eq. (2)) under the period bound P_max: `minimize: failure_probability`
  scenario,            // nothing: it evaluates the given mapping for the scenario's objective, either one
  none                 // nothing: it draws mappings (the period objective only)
};
PIPESIM_ENUM_NAMES(MapperObjective, {period, "period"}, {production_time, "production-time"},
                   {task_chain_period, "task-chain-period"}, {failure_probability, "failure-probability"},
                   {scenario, "scenario"}, {none, "none"});

/// What a mapper reads besides the pipeline and the platform.
enum class MapperInput {
  pipeline,        // nothing more (and refuses a task chain: its stand-in pipeline is all zeros)
  task_chain,      // Problem::task_chain, sv95's cost model
  explicit_mapping // Problem::explicit_mapping, the scenario's mapping
};
PIPESIM_ENUM_NAMES(MapperInput, {pipeline, "pipeline"}, {task_chain, "task chain"},
                   {explicit_mapping, "explicit mapping"});

/// Everything the registry knows about a mapper. Mapper::refuses() checks a problem against `objective`, `models`,
/// `platform_classes` and `input` (and that the platform has a processor) before the mapper's own limits.
struct MapperInfo {
  std::string name;        // stable registered name, e.g. "br07.h7b-bsc"
  std::string description; // one line of its own: no two mappers share one
  Paper paper               = Paper::pipesim;
  MapperFamily family       = MapperFamily::heuristic;
  MapperObjective objective = MapperObjective::period;
  std::vector<CommModel> models{CommModel::one_port, CommModel::multi_port};
  std::vector<PlatformClass> platform_classes{
      PlatformClass::fully_homogeneous, PlatformClass::communication_homogeneous, PlatformClass::fully_heterogeneous};
  MapperInput input   = MapperInput::pipeline;
  MappingRule mapping = MappingRule::interval; // the rule every mapping it returns obeys
  bool exact          = false; // proves optimality (status `optimal`) whenever it ends within its limits
  std::string complexity;      // as its header's Complexity line says, in short
  std::string restriction;     // why it accepts only these models or platform classes (refusals quote it); may be empty
  /// Rank in its paper's own list (bbr10 Table 2's rows); listings sort by paper, family, rank, then name.
  int rank = 0;
};

/// {"name", "description", "paper", "family", "objective", "models", "platform_classes", "input", "mapping", "exact",
/// "complexity"} (and "restriction" when not empty).
nlohmann::json to_json(const MapperInfo& info);

/// Listing order: paper, family, rank, name.
bool listed_before(const MapperInfo& a, const MapperInfo& b);

/// What `pipesim mappers` prints: the mappers grouped by paper (a heading with its title) and family, each with its
/// description and a line of facts (objective, models, platform classes, input, mappings, exactness, complexity).
/// `infos` in listing order.
std::string mapper_listing(const std::vector<MapperInfo>& infos);

} // namespace pipesim
