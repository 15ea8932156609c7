// Repair after crashes against active replication on the same crash schedules (issue 34 item 4, docs/dynamic.md
// "Repair after crashes"): each schedule runs twice, once with the unreplicated mapping repaired by `on_crash: remap`,
// once with the same intervals actively replicated on every other processor (DESIGN.md §3.5).
#pragma once

#include "mappers/mapper.hpp"
#include "simulator/simulation.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace pipesim {

/// What one approach gave over the schedules.
struct CrashApproachFigures {
  int runs          = 0;
  int survived      = 0; // every data set reached P_out (replication) or the run was repaired to its end (remap)
  double delivered  = 0; // mean data sets that reached P_out
  double lost       = 0; // mean data sets lost (N - delivered)
  double throughput = 0; // mean of delivered / makespan over the fault-free unreplicated run's N / makespan
  double processors = 0; // mean processors that ran a stage
  double crashes    = 0; // mean crashes of processors the approach used
  double survival_rate() const { return runs > 0 ? static_cast<double>(survived) / runs : 0; }
};

/// One schedule's outcome under both approaches.
struct CrashScheduleOutcome {
  std::vector<Crash> crashes; // the schedule (every processor's crashes)
  bool remap_survived       = false;
  int remap_delivered       = 0;
  int remap_lost            = 0; // SimulationResult::datasets_lost
  int remaps                = 0;
  bool replication_survived = false;
  int replication_delivered = 0;
};

struct CrashRepairComparison {
  std::string remap_mapping;      // the unreplicated mapping (the mapper's) that on_crash: remap repairs
  std::string replicated_mapping; // its intervals, each actively replicated
  double fault_free_period = 0;   // of the unreplicated mapping, simulated
  double replicated_period = 0;   // of the replicated mapping without crashes, simulated
  int schedules            = 0;
  int schedules_with_crash = 0; // schedules in which some processor crashes before the end
  CrashApproachFigures remap;
  CrashApproachFigures replication;
  std::vector<CrashScheduleOutcome> outcomes; // per schedule, in seed order
  std::string text() const;
};

/// The settings of a comparison: `problem` (one-port or multi-port, its platform's failure probabilities f_u are the
/// crash model's: probability, crash times uniform in [0, 0.5] x the fault-free makespan), the mapper, N data sets,
/// detection delay d, seeds first_seed .. first_seed + schedules - 1 (run_seed of the scenario seed).
struct CrashRepairSetup {
  Problem problem;
  std::string mapper = "exact.interval";
  int datasets       = 200;
  double detect      = 0;
  int schedules      = 50;
  std::uint64_t seed = 1;
};

/// Runs the comparison (two simulations per schedule). InputError when the mapper finds no mapping.
CrashRepairComparison compare_crash_repair(const CrashRepairSetup& setup);

} // namespace pipesim
