// Monte Carlo crash runs (DESIGN.md §3.5, issue 5): the statistics of R independent runs of a mapping under a failure
// model (run by the simulator's series entry point): the survival rate, its Wilson intervals and 1 - F from bbr10
// eq. (2) next to it.
#pragma once

#include "model/mapping.hpp"
#include "model/pipeline.hpp"
#include "model/variability.hpp"
#include "platforms/platform.hpp"
#include "simulator/simulation.hpp"
#include "validation/evaluation/statistics.hpp"

#include <cstdint>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>
#include <vector>

namespace pipesim {

/// What one run of the series gave (its seed reproduces it: `simulation.seed` of the run and the same model).
struct MonteCarloRun {
  int index           = 0;
  std::uint64_t seed  = 0;
  Verdict verdict     = Verdict::error;
  double completion   = 0;  // last output (survived) or failure time (failed)
  int failed_interval = -1; // 0-based
  std::string failed_link;  // failed: the link whose failure ended the run (what-if fail_link), else empty
  int crashes            = 0;
  int scheduled          = 0;    // crashes drawn (those after the run's end never happened)
  bool schedule_survives = true; // the mapping survives every drawn crash (mapping_survives: deal needs all replicas)
  int elections          = 0;
  int duplicates         = 0;
  double period_after    = -1; // steady state after the last crash (-1: too few outputs)
  std::string error;           // Verdict::error: what went wrong (a simulator bug: the run had no verdict)
};

struct MonteCarloSummary {
  FailureModel model      = FailureModel::none;
  ElectionPolicy election = ElectionPolicy::first; // simulation.failures.election
  int runs                = 0;
  int survived            = 0;
  int failed              = 0;
  int failed_on_link      = 0; // failed runs that a link failure ended (included in `failed`)
  int errors              = 0; // runs without a verdict (never expected: each is reported)
  double survival_rate    = 0;
  /// Runs whose drawn schedule leaves an interval without replica but that survived: the fatal crash came after the
  /// run's end (crashes can make a run faster than the fault-free one, e.g. when a slow elected sender dies).
  int survived_late_crash       = 0;
  double schedule_survival_rate = 0; // fraction of drawn schedules the mapping survives (mapping_survives)
  ProportionInterval ci95;           // Wilson
  ProportionInterval ci99;
  std::optional<double> analytic_survival; // 1 - F (bbr10 eq. (2)) for the probability model
  double fault_free_makespan = 0;
  double fault_free_period   = 0;
  std::uint64_t seed         = 0; // the series' seed (runs use run_seed(seed, i))
  std::vector<MonteCarloRun> details;

  /// 1 - F inside the 99 % interval of the measured rate.
  bool consistent_99() const;
};

/// The series of `settings.runs` runs of a mapping under the settings' failure model, `jobs` processes at once, by the
/// simulator's entry point (simulate with RunKind::series, simulator/simulate.hpp: the fault-free run, then the runs
/// in batches of series_batch_size runs), and the statistics of it: survival rate, Wilson intervals, 1 - F.
/// InputError if the settings have no failure model. With settings.progress, the data sets of the fault-free run and
/// the runs of the series as they end go to stderr (base/progress.hpp); the runs themselves show nothing. With random
/// operation times (`variability`, DESIGN.md §3.10) every run draws them from the spec's seed (settings.seed when it
/// has none), so the runs differ by their crashes only.
MonteCarloSummary simulate_monte_carlo(const Pipeline& pipeline, const Platform& platform, const Mapping& mapping,
                                       const SimulationSettings& settings, int jobs = 2,
                                       const VariabilitySpec& variability = {});

/// The summary with one entry per run in "details" (`nlohmann::json j = summary;`).
void to_json(nlohmann::json& j, const MonteCarloSummary& summary);

} // namespace pipesim
