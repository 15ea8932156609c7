// What the simulator's entry point takes and gives (simulator/simulate.hpp): a job (what to simulate, which run)
// in, its output out.
#pragma once

#include "base/enum_names.hpp"
#include "model/mapping.hpp"
#include "model/pipeline.hpp"
#include "model/sv95/task_chain.hpp"
#include "model/variability.hpp"
#include "platforms/platform.hpp"
#include "simulator/remap.hpp"
#include "simulator/simulation.hpp"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace pipesim {

/// The runs a job asks for (DESIGN.md §3.5, §3.9).
enum class RunKind {
  period,  // N data sets. With a failure model and no crash schedule in the settings: run 0 of the series (its crashes
           // drawn with run_seed(seed, 0), after the fault-free run when the `probability` window needs its makespan)
  latency, // one data set alone, without failures (DESIGN.md §3.9)
  series   // Monte Carlo: the fault-free run, then runs 0 .. settings.runs - 1 of settings_for_run
};
PIPESIM_ENUM_NAMES(RunKind, {period, "period"}, {latency, "latency"}, {series, "series"});

/// A simulation job: the pipeline (or sv95's task chain) mapped on the platform, the settings, the kind of run.
/// Which execution runs it (one-port, multi-port, modules, programs) follows from the job alone
/// (execution_kind, simulator/deployment.hpp).
struct SimulationJob {
  /// A pipeline, run by the one-port or the multi-port execution (settings.model).
  SimulationJob(Pipeline pipeline, Platform platform, Mapping mapping, SimulationSettings settings,
                RunKind kind = RunKind::period);
  /// sv95's modules (DESIGN.md §3.8): charged with `chain`'s response functions, or running its tasks' programs
  /// on the platform when every task has one (the pipeline stays empty).
  SimulationJob(TaskChain chain, Platform platform, Mapping mapping, SimulationSettings settings,
                RunKind kind = RunKind::period);

  Pipeline pipeline;
  Platform platform;
  Mapping mapping;
  SimulationSettings settings;
  RunKind kind = RunKind::period;
  std::optional<TaskChain> task_chain;
  int processes = 2; // series: runs at once (one process each)
  /// The laws of each data set's w_i and delta_i (DESIGN.md §3.10), the pipeline's values being their means;
  /// deterministic by default. Its seed, when absent, is settings.seed (a series' runs and the crash run of a period
  /// job then draw with their own run seeds: set it to keep the fault-free run's draws). The one-port and multi-port
  /// executions only: the modules and programs refuse random laws.
  VariabilitySpec variability;
  /// Re-mapping during the run (DESIGN.md §3.12, simulator/remap_controller.hpp): a period run of the one-port or
  /// multi-port execution without failures steps the engine, measures per window of `remap.window` data sets and
  /// carries out what `policy` decides. Null: today's run (one Engine::run).
  std::shared_ptr<RemapPolicy> policy;
  RemapSettings remap;
};

/// One run of a series: its seed and drawn schedule, and what its process measured (figures only: a series may have
/// a million runs, and the output times of each would be N doubles).
struct SeriesRun {
  int index          = 0;
  std::uint64_t seed = 0;      // run_seed(settings.seed, index): `simulation.seed` of the same run alone
  std::vector<Crash> schedule; // the crashes drawn for it (those after its end never happened)
  Verdict verdict     = Verdict::error;
  double completion   = 0;  // last output (survived) or failure time (failed)
  int failed_interval = -1; // 0-based
  std::string failed_link;  // failed: the link whose failure ended the run (what-if fail_link), else empty
  int crashes         = 0;  // crashes that happened
  int elections       = 0;
  int duplicates      = 0;
  double period_after = -1; // steady state after the last crash (-1: too few outputs)
  std::string error;        // Verdict::error: what went wrong (the run had no verdict, or its process died)
};

/// What a job gave.
struct SimulationOutput {
  /// period: the run; latency: the one-data-set run; series: the fault-free reference run.
  SimulationResult run;
  /// series: runs 0 .. settings.runs - 1, in order.
  std::vector<SeriesRun> series;

  /// A latency run's latency: its output time, infinite when the data set never arrived (a link failed on its way).
  double latency() const;
};

} // namespace pipesim
