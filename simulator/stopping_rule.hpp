// When a run has output enough data sets (DESIGN.md §3.9, §3.10): asked at P_out after each output.
#pragma once

#include <span>

namespace pipesim {

/// Today's only rule is FixedDatasets (N data sets, `simulation.datasets`). A run that goes on until the confidence
/// interval of its period is narrow enough (issue 33, DESIGN.md §3.10) is a second implementation, chosen in
/// run_inputs (simulator/deployment.cpp), with max_datasets its `simulation.max_datasets`: P_in feeds up to that many
/// and P_out ends the run (verdict survived, with the outputs so far) as soon as enough() says so.
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

} // namespace pipesim
