// Mapper interface and registry (DESIGN.md §5): mappers register under stable names; nothing central is edited.
#pragma once

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

/// Objective: minimise the period, or minimise F under a period bound (seed 004).
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
  std::optional<TaskChain> task_chain;     // seed 001's cost model, for the sv95 mappers (others ignore it)
};

/// How seed 004's reliability heuristics test "the mapping satisfies P_max" (docs/bbr10-reliability.md):
/// - worst_case: pipesim's worst-case period, through its bound (every surviving failure configuration);
/// - all_alive_best_election: the paper's reading of §6.2-§6.3, every replica alive and the best of the four
///   elections of §6.1 (Random, MaxBout, MinComm, MinNbProcs).
enum class PeriodTest { worst_case, all_alive_best_election };
PIPESIM_ENUM_NAMES(PeriodTest, {worst_case, "worst-case"}, {all_alive_best_election, "all-alive-best-election"});

struct MapperOptions {
  std::uint64_t seed     = 1;
  double time_limit      = 60;                     // seconds
  PeriodTest period_test = PeriodTest::worst_case; // read by the seed 004 reliability heuristics only
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
  std::optional<PeriodTest> period_test;    // the P_max test the mapper applied (seed 004's reliability mappers)
};

/// (objective - lower_bound) / |objective|, the relative gap of a MILP solver: 0 when optimal, +inf without a
/// mapping; empty without a lower bound.
std::optional<double> relative_gap(const MapperResult& result);

class Mapper {
public:
  virtual ~Mapper()                       = default;
  virtual std::string name() const        = 0;
  virtual std::string description() const = 0;
  /// Empty if the mapper accepts the problem, otherwise why not (platform class, model, objective, size).
  virtual std::optional<std::string> refuses(const Problem& problem) const = 0;
  /// Precondition: refuses(problem) is empty. Infeasible results carry an empty mapping.
  virtual MapperResult map(const Problem& problem, const MapperOptions& options) const = 0;
};

using MapperFactory = std::function<std::unique_ptr<Mapper>()>;

/// The registered name of the mapper that passes a scenario's own mapping through (mappers/explicit_mapper.hpp).
inline constexpr const char* explicit_mapper_name = "explicit";

/// Registry of mappers by stable name.
class MapperRegistry {
public:
  static MapperRegistry& instance();
  void add(const std::string& name, MapperFactory factory);
  /// Throws InputError naming the unknown name and listing the known ones.
  std::unique_ptr<Mapper> create(const std::string& name) const;
  std::vector<std::string> names() const;

private:
  std::map<std::string, MapperFactory> factories_;
};

/// A static instance registers a mapper at load time (mappers are an OBJECT library, so none is dropped).
struct MapperRegistration {
  MapperRegistration(const std::string& name, MapperFactory factory);
};

/// Runs a mapper by name after checking that it accepts the problem (InputError otherwise).
/// A mapping that needs a pair without route (Platform::reachable) is turned down: the result is infeasible, with
/// the pair in `note`.
MapperResult run_mapper(const std::string& name, const Problem& problem, const MapperOptions& options);

} // namespace pipesim
