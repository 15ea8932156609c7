// When a run has output enough data sets (DESIGN.md §3.9, §3.10): asked at P_out after each output.
#pragma once

#include "base/period_estimate.hpp"

#include <span>
#include <vector>

namespace pipesim {

/// FixedDatasets (N data sets, `simulation.datasets`) or PrecisionRule (until the confidence interval of the period
/// is narrow enough, `simulation.precision`, DESIGN.md §3.10), chosen in run_inputs (simulator/deployment.cpp): P_in
/// feeds up to max_datasets() and P_out ends the run (verdict survived, with the outputs so far) as soon as enough()
/// says so.
/// The one-port and multi-port executions ask the rule at P_out; the modules and programs do not take one (they
/// order their outputs after the run, and run settings.datasets data sets).
class StoppingRule {
public:
  virtual ~StoppingRule() = default;
  /// The data sets P_in feeds at most.
  virtual int max_datasets() const = 0;
  /// Whether the run may end now, `output_times` being t_1..t_n, the outputs so far in order.
  virtual bool enough(std::span<const double> output_times) const = 0;
};

/// N data sets, no more, no fewer.
class FixedDatasets final : public StoppingRule {
public:
  explicit FixedDatasets(int datasets) : datasets_(datasets) {}
  int max_datasets() const override { return datasets_; }
  bool enough(std::span<const double> output_times) const override
  {
    return static_cast<int>(output_times.size()) >= datasets_;
  }

private:
  int datasets_ = 0;
};

/// `simulation.precision` p (DESIGN.md §3.10): the run goes on until the `confidence` interval of its period (MSER-5
/// warm-up, batch means: estimate_period, base/period_estimate.hpp) has a relative half-width of at most p, up to
/// `max_datasets` outputs. The interval is looked at after `first_check` outputs (simulation.datasets), then each time
/// the outputs have doubled, as maxplus_period does (model/maxplus.hpp): O(N) estimation work over a run of N outputs,
/// and a run stops at most twice as late as the first count that was narrow enough. With deterministic times
/// (`options.deterministic`) periodic output times stop it at once (an interval of width 0).
class PrecisionRule final : public StoppingRule {
public:
  PrecisionRule(int first_check, int max_datasets, double precision, PeriodEstimateOptions options);
  int max_datasets() const override { return max_datasets_; }
  bool enough(std::span<const double> output_times) const override;

private:
  int max_datasets_ = 0;
  double precision_ = 0;
  PeriodEstimateOptions options_;
  mutable long long next_check_ = 0; // the outputs at which the interval is looked at next (a run asks in order)
};

/// The period estimate of a finished run's output times (`SimulationResult::estimate`): estimate_period over them,
/// the last `cooldown` left out (a multi-port run drains once P_in has fed its last data set; a run stopped by a
/// PrecisionRule before max_datasets never drains: its caller passes 0).
PeriodEstimate run_period_estimate(const std::vector<double>& output_times, int cooldown,
                                   const PeriodEstimateOptions& options);

} // namespace pipesim
