// Where a run's per-data-set amounts come from: the work of each stage and the size of each message for data set k
// (DESIGN.md §3.10). Every execution that runs a pipeline (one-port, multi-port, with deal and crashes) takes them from
// here and nowhere else.
#pragma once

#include "model/mapping.hpp"
#include "model/pipeline.hpp"
#include "model/variability.hpp"

#include <cstdint>
#include <vector>

namespace pipesim {

/// The amounts of each data set: PipelineWorkload (the pipeline's w_i and delta_i for every data set) or DrawnWorkload
/// (random operation times, DESIGN.md §3.10: a draw per (seed, stage, k, what), the same whatever order the actors
/// ask in), chosen in run_inputs (simulator/deployment.cpp).
class Workload {
public:
  virtual ~Workload() = default;
  /// w_i(k): the work of stage i (1..n) for data set k (0-based), in flop.
  virtual double work(int stage, int k) const = 0;
  /// delta_i(k): the size of stage i's output for data set k (i = 0..n; delta_0 enters S_1), in bytes.
  virtual double size(int i, int k) const = 0;
  /// Every data set has the same amounts: the executions then compute what they need once, not per data set.
  virtual bool same_for_every_dataset() const = 0;
};

/// The pipeline's w_i and delta_i for every data set (DESIGN.md §3.10's `deterministic` law).
class PipelineWorkload final : public Workload {
public:
  explicit PipelineWorkload(Pipeline pipeline) : pipeline_(std::move(pipeline)) {}
  double work(int stage, int) const override { return pipeline_.work(stage); }
  double size(int i, int) const override { return pipeline_.data(i); }
  bool same_for_every_dataset() const override { return true; }

private:
  Pipeline pipeline_;
};

/// Random operation times (DESIGN.md §3.10): every value from the model's Variability, the one source of draws, so
/// that the simulation and the max-plus oracle (model/maxplus.hpp) see the same values (common random numbers) and a
/// rerun gets the same bits.
class DrawnWorkload final : public Workload {
public:
  explicit DrawnWorkload(Variability variability) : variability_(std::move(variability)) {}
  double work(int stage, int k) const override { return variability_.work(stage, k); }
  double size(int i, int k) const override { return variability_.size(i, k); }
  bool same_for_every_dataset() const override { return variability_.deterministic(); }

private:
  Variability variability_;
};

/// A mapping's amounts per interval, as the SimGrid actors use them: W_j(k), the work of I_j for data set k (its
/// stages' w_i(k) summed in stage order, as Pipeline::work), and the bytes entering I_j (j = m: leaving I_m),
/// multiplied by the exact mode's size scale and rounded to whole bytes (InputError when a drawn size does not fit in
/// SimGrid's 2^63 - 1 bytes). Computed once when the workload is the
/// same for every data set (a vector lookup per call), asked of the workload otherwise.
class IntervalAmounts {
public:
  IntervalAmounts(const Workload& workload, const Mapping& mapping, int n, double size_scale);
  double work(int j, int k) const { return constant_ ? work_[static_cast<std::size_t>(j)] : interval_work(j, k); }
  std::uint64_t bytes(int j, int k) const
  {
    return constant_ ? bytes_[static_cast<std::size_t>(j)] : interval_bytes(j, k);
  }
  bool constant() const { return constant_; }

private:
  double interval_work(int j, int k) const;
  std::uint64_t interval_bytes(int j, int k) const;

  const Workload& workload_;
  const Mapping& mapping_;
  int n_             = 0;
  double size_scale_ = 1;
  bool constant_     = true;
  std::vector<double> work_;         // per interval, when constant
  std::vector<std::uint64_t> bytes_; // per interval and P_out (m + 1 entries), when constant
};

} // namespace pipesim
