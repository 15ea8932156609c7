// sv95 §5: the response functions fitted from sample executions. Each task's f_exec(p) and each pair's f_icom(p)
// are fitted to C1 + C2/p + C3 p, each f_ecom(ps, pr) to C1 + C2/ps + C3/pr + C4 ps + C5 pr, by least squares over
// 8 measured samples by default ("8 executions on different numbers of processors"; docs/sv95.md, "Fitting").
#pragma once

#include "base/enum_names.hpp"
#include "model/sv95/task_chain.hpp"

#include <functional>
#include <string>
#include <vector>

namespace pipesim {

/// What a sample measures: task i's execution on p processors, the redistribution after task i on p processors
/// (both tasks on the same p), or the transfer after task i from ps = p senders to pr receivers.
enum class FitStep { exec, icom, ecom };
PIPESIM_ENUM_NAMES(FitStep, {exec, "exec"}, {icom, "icom"}, {ecom, "ecom"});

/// One sample execution (1 <= task <= k; for icom and ecom the pair task -> task + 1).
struct FitPoint {
  FitStep step                           = FitStep::exec;
  int task                               = 1;
  int p                                  = 1;
  int pr                                 = 0; // ecom only
  bool operator==(const FitPoint&) const = default;
};

/// The least-squares solution x of min |A x - y| (A: rows of equal length n <= rows). Columns are scaled to unit norm
/// and solved by Householder QR, so 1/p and p columns of very different sizes keep full precision. Throws
/// InputError when A has rank < n (the samples cannot tell the coefficients apart). Complexity: O(rows n^2).
/// A refusal (too few samples, rank deficient) is an InputError about `key`, its message starting with `what`.
std::vector<double> least_squares(const std::vector<std::vector<double>>& a, const std::vector<double>& y,
                                  const std::string& key = "task_chain", const std::string& what = "");

/// The basis of a step's model at a sample: {1, 1/p, p} (exec, icom) or {1, 1/ps, 1/pr, ps, pr} (ecom).
std::vector<double> fit_basis(const FitPoint& point);

/// Whether samples at these points (of one function) tell its coefficients apart: least_squares on them succeeds
/// whatever the measured values (the rank depends on the points only).
bool tells_apart(const std::vector<FitPoint>& points);

/// "f_exec(colffts)", "f_ecom(colffts -> rowffts)": a function of the chain, as messages and tables name it.
std::string fit_label(const TaskChain& chain, FitStep step, int task);

/// The scenario key where a function of the chain is given, for the refusals that name it
/// ("task_chain.tasks[0].program" for a function its program gives); empty: fit_key's default.
using FitLocator = std::function<std::string(FitStep step, int task)>;
/// The key of a function's refusals: where(step, task), else "task_chain.tasks[task-1].exec" (icom, ecom).
std::string fit_key(FitStep step, int task, const FitLocator& where = {});

/// `count` distinct processor counts in [lo, hi], spread geometrically (lo and hi always included); all of them when
/// the range has fewer than `count`.
std::vector<int> spread_counts(int lo, int hi, int count);

/// The samples of a chain on P processors: per task `samples` exec counts in [p_min, P]; per pair `samples` icom
/// counts in [the larger minimum, P] and up to `samples` ecom pairs (ps, pr) from 3 x 3 spread values with
/// ps + pr <= P (senders and receivers on different processors), the cross through the middle first, chosen so that
/// they tell the 5 coefficients apart. Throws InputError (at `where`) naming the function, the samples possible, why
/// (P, the tasks' minimums, a table's range) and what would give more, when a function's samples cannot tell its
/// coefficients apart; and when `samples` < 5. Complexity: O(k samples).
std::vector<FitPoint> fit_plan(const TaskChain& chain, int P, int samples = 8, const FitLocator& where = {});

/// The chain's own functions at the samples: the samples of a chain given by functions (a polynomial fit of tables).
std::vector<double> evaluate_samples(const TaskChain& chain, const std::vector<FitPoint>& plan);

/// One fitted function: its coefficients, the samples with measured and fitted values, and the residuals.
struct FittedFunction {
  FitStep step = FitStep::exec;
  int task     = 1;
  std::vector<double> coefficients;
  std::vector<FitPoint> points;
  std::vector<double> measured;
  std::vector<double> fitted;
  double rms_residual     = 0;                     // sqrt(mean (fitted - measured)^2), seconds
  double max_abs_residual = 0;                     // seconds
  double max_rel_residual = 0;                     // max |fitted - measured| / measured over samples with measured > 0
  std::string label(const TaskChain& chain) const; // "f_exec(colffts)", "f_ecom(colffts -> rowffts)"
  /// The fitted polynomial at p processors (p senders and pr receivers for f_ecom).
  double value(int p, int pr = 0) const;
};
/// Puts the fitted polynomial in place of its function in `chain`.
void apply_fit(TaskChain& chain, const FittedFunction& f);

/// Measures a list of samples (in one batch: a simulation engine can run them all), returning seconds in order.
using FitSampler = std::function<std::vector<double>(const std::vector<FitPoint>&)>;

/// The chain with every exec, icom and ecom replaced by its fitted polynomial (p_min, memory, replicability, input
/// and output kept), and the fits in the order exec t_1, icom 1->2, ecom 1->2, exec t_2, ...
struct FittedChain {
  TaskChain chain;
  std::vector<FittedFunction> functions;
};
/// Runs `sample` once on fit_plan(chain, P, samples, where) and fits every function (sv95 §5).
FittedChain fit_task_chain(const TaskChain& chain, int P, const FitSampler& sample, int samples = 8,
                           const FitLocator& where = {});

} // namespace pipesim
