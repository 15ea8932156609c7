// Whether a mapping keeps its period bound P_max once crashes have happened (bbr10's objective, issue 36): the
// survived runs of a Monte Carlo series, their steady state after the last crash against P_max.
#pragma once

#include "model/mapping.hpp"
#include "model/pipeline.hpp"
#include "platforms/platform.hpp"
#include "simulator/simulation.hpp"
#include "validation/evaluation/monte_carlo.hpp"
#include "validation/evaluation/statistics.hpp"

#include <nlohmann/json_fwd.hpp>
#include <string>

namespace pipesim {

/// Runs above P_max and how far, counted on one period per run.
struct OverBound {
  int over = 0;            // period > P_max (1 + 1e-9)
  ProportionInterval ci95; // Wilson, over / the runs counted
  double max_ratio  = 0;   // largest period / P_max
  int one_left_over = 0;   // of the runs ending with an interval down to one replica
  ProportionInterval one_left_ci95;
};

struct PeriodAfterCrashes {
  double bound = 0; // P_max
  int measured = 0; // survived runs with a steady state measured after their last crash
  /// Of those, the runs that end with some interval down to one alive replica (its survivor sends for every interval
  /// of its processor set: the configurations of the worst case).
  int one_left = 0;
  /// Algorithm 1's period of the configuration each run ends in, with the series' election policy: the steady state
  /// the simulated run settles at (simulator/election_policy_test.cpp checks it to 1e-6 on long runs).
  OverBound analytic;
  /// The simulated period after the last crash, as measured on the run's data sets: above its steady state while
  /// the crashes' transient lasts (few data sets after the crash, long pipelines).
  OverBound simulated;
  double max_gap = 0; // largest |simulated - Algorithm 1| / Algorithm 1
};

/// Contract.
/// - Input: the Monte Carlo series `mc` of `mapping` under `settings` (its failure model drew each run's crashes;
///   the first `crashes` of a run's schedule, in time order, are those that happened), P_max = `bound` > 0. The
///   mapping must be multi-port with active replication on single processors (bbr10's; InputError otherwise).
/// - Per survived run with a measured period after its last crash (MonteCarloRun::period_after >= 0): compares it
///   with P_max; rebuilds the run's last failure configuration, tells whether an interval kept one replica, and
///   evaluates Algorithm 1 with the election the simulator uses (bbr10_election(settings.failures.election, run
///   seed)).
/// - Complexity: one election and one Algorithm 1 evaluation per measured run.
PeriodAfterCrashes period_after_crashes(const Pipeline& pipeline, const Platform& platform, const Mapping& mapping,
                                        const SimulationSettings& settings, const MonteCarloSummary& mc, double bound);

void to_json(nlohmann::json& j, const PeriodAfterCrashes& p);

} // namespace pipesim
