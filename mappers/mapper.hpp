// Mapper interface and registry (DESIGN.md §5): mappers register under stable names with what they are (MapperInfo);
// nothing central is edited.
#pragma once

#include "mappers/deadline.hpp"
#include "mappers/mapper_info.hpp"
#include "model/comm_model.hpp"
#include "model/mapping.hpp"
#include "model/pipeline.hpp"
#include "model/sv95/task_chain.hpp"
#include "platforms/platform.hpp"

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace pipesim {

/// Objective: minimise the period, or minimise F under a period bound (bbr10).
struct Objective {
  enum class Kind { min_period, min_failure_probability } kind = Kind::min_period;
  double period_bound                                          = 0; // P_max, for min_failure_probability
};
/// The scenario's `objective.minimize` values.
PIPESIM_ENUM_NAMES(Objective::Kind, {min_period, "period"}, {min_failure_probability, "failure_probability"});

struct Problem {
  Pipeline pipeline;
  Platform platform;
  CommModel model = CommModel::one_port;
  Objective objective;
  std::optional<Mapping> explicit_mapping; // for the `explicit` mapper
  std::optional<TaskChain> task_chain;     // sv95's cost model, for the sv95 mappers (others ignore it)
};

/// How bbr10's reliability heuristics test "the mapping satisfies P_max" (docs/bbr10-reliability.md):
/// - worst_case: pipesim's worst-case period, through its bound (every surviving failure configuration);
/// - all_alive_best_election: the paper's reading of §6.2-§6.3, every replica alive and the best of the four
///   elections of §6.1 (Random, MaxBout, MinComm, MinNbProcs).
enum class PeriodTest { worst_case, all_alive_best_election };
PIPESIM_ENUM_NAMES(PeriodTest, {worst_case, "worst-case"}, {all_alive_best_election, "all-alive-best-election"});

struct MapperOptions {
  std::uint64_t seed     = 1;
  double time_limit      = 60;                     // seconds
  PeriodTest period_test = PeriodTest::worst_case; // read by the bbr10 reliability heuristics only
  /// The budget of one run, counted from now: every mapper with a time limit takes it when map() starts and checks
  /// it, never the clock itself.
  Deadline deadline() const { return Deadline(time_limit); }
};

enum class SolveStatus { optimal, feasible, infeasible, time_limit };
PIPESIM_ENUM_NAMES(SolveStatus, {optimal, "optimal"}, {feasible, "feasible"}, {infeasible, "infeasible"},
                   {time_limit, "time limit"});

struct MapperResult {
  Mapping mapping;
  SolveStatus status = SolveStatus::feasible;
  double objective   = 0; // the value the mapper minimised (period or F)
  /// Proved: no mapping of the problem has an objective below it (a MILP solver's dual bound). Equal to
  /// `objective` when the status is optimal (run_mapper sees to it); mappers that prove nothing leave it empty.
  std::optional<double> lower_bound;
  std::map<std::string, double> statistics; // e.g. {"candidates", 120}, {"seconds", 0.01}
  std::string note;                         // why run_mapper turned a mapping down (empty otherwise)
  std::optional<PeriodTest> period_test;    // the P_max test the mapper applied (bbr10's reliability mappers)
};

/// (objective - lower_bound) / |objective|, the relative gap of a MILP solver: 0 when optimal, +inf without a
/// mapping; empty without a lower bound.
std::optional<double> relative_gap(const MapperResult& result);

class Mapper {
public:
  virtual ~Mapper() = default;
  /// What the mapper is: the registry lists it, refuses() checks problems against it.
  virtual MapperInfo info() const = 0;
  std::string name() const { return info().name; }
  /// Empty if the mapper accepts the problem, otherwise why not: first what info() says (objective, input, model,
  /// a processor, platform class: mapper_info_refusal), then the mapper's own limits (instance_refusal).
  std::optional<std::string> refuses(const Problem& problem) const;
  /// Precondition: refuses(problem) is empty. Infeasible results carry an empty mapping.
  virtual MapperResult map(const Problem& problem, const MapperOptions& options) const = 0;

protected:
  /// Why the mapper cannot take a problem that info() accepts (its size, link latencies, ...); empty: it can.
  virtual std::optional<std::string> instance_refusal(const Problem& /*problem*/) const { return std::nullopt; }
};

/// Why a mapper described by `info` refuses the problem, from the metadata alone (one message per cause for every
/// mapper): a missing task chain or explicit mapping, a task chain given to a mapper of pipelines, another objective
/// (or no period bound > 0 for F), a model or platform class it does not accept, a platform without processor. Empty
/// when the metadata accepts it.
std::optional<std::string> mapper_info_refusal(const MapperInfo& info, const Problem& problem);

using MapperFactory = std::function<std::unique_ptr<Mapper>()>;

/// The registered name of the mapper that passes a scenario's own mapping through (mappers/explicit_mapper.hpp).
inline constexpr const char* explicit_mapper_name = "explicit";

/// Registry of mappers by stable name, with their metadata. Only the user-facing mappers register themselves; the
/// testing aids (debug.*) are added by tests that need them (mappers/debug/debug_mappers_fixtures.hpp).
class MapperRegistry {
public:
  static MapperRegistry& instance();
  /// Registers the mapper `factory` makes under its info().name (std::logic_error when the name is taken).
  void add(MapperFactory factory);
  /// Registers `factory`'s mapper again under its info().name, which must be taken (std::logic_error otherwise): a
  /// mapper defined at run time and defined again (a Python mapper's notebook cell run twice, python/).
  void replace(MapperFactory factory);
  /// Throws InputError naming the unknown name and listing the known ones.
  std::unique_ptr<Mapper> create(const std::string& name) const;
  /// The metadata of a registered mapper (InputError as create() for an unknown name).
  const MapperInfo& info(const std::string& name) const;
  /// The metadata of `name`, or nullptr when no mapper has that name (e.g. a name read back from old results).
  const MapperInfo* find(const std::string& name) const;
  std::vector<std::string> names() const; // sorted
  /// Every registered mapper's metadata, in listing order (paper, family, rank, name).
  std::vector<MapperInfo> infos() const;

private:
  struct Entry {
    MapperInfo info;
    MapperFactory factory;
  };
  std::map<std::string, Entry> entries_;
};

/// A static instance registers a mapper at load time (mappers are an OBJECT library, so none is dropped).
struct MapperRegistration {
  explicit MapperRegistration(MapperFactory factory);
};

/// Why the registered mapper `name` refuses the problem, as every command says it: "mapper 'NAME' cannot handle this
/// problem: REASON" (Mapper::refuses gives REASON). Empty when it accepts the problem. Unknown name: InputError.
std::optional<std::string> mapper_refusal(const std::string& name, const Problem& problem);

/// Runs a mapper by name after checking that it accepts the problem (InputError with mapper_refusal's message
/// otherwise).
/// A mapping that needs a pair without route (Platform::reachable) is turned down: the result is infeasible, with
/// the pair in `note`.
MapperResult run_mapper(const std::string& name, const Problem& problem, const MapperOptions& options);

} // namespace pipesim
