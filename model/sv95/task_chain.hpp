// sv95's problem input: a chain of data-parallel tasks t_1..t_k with their cost model (§2.1, §5), memory needs
// and replicability (§2.2, §3.2). docs/sv95.md gives the meaning of every field and the choices made.
#pragma once

#include "base/enum_names.hpp"

#include <array>
#include <cmath>
#include <optional>
#include <string>
#include <vector>

namespace pipesim {

/// A time as a function of the number of processors p: sv95 §5's polynomial C1 + C2/p + C3 p (f_exec, f_icom),
/// or a table of values for p = from, from + 1, ...; +inf outside the table (the task cannot run on that many).
struct CostFunction {
  std::array<double, 3> c{0, 0, 0}; // C1, C2, C3 (polynomial)
  std::vector<double> table;        // table[p - from] (a table when non-empty)
  int from = 1;

  static CostFunction polynomial(double c1, double c2 = 0, double c3 = 0);
  static CostFunction values(std::vector<double> table, int from = 1);
  /// A function a program chain leaves to be measured (`pipesim fit`): NaN coefficients, refused by the mappers.
  static CostFunction missing();
  bool is_missing() const { return table.empty() && std::isnan(c[0]); }
  bool is_table() const { return not table.empty(); }
  /// (C1 + C2/p) + C3 p, or the table's value; p >= 1.
  double operator()(int p) const;
  /// The largest p with a finite value (a large number for a polynomial).
  int last_p() const;
};

/// A time as a function of the sender's and the receiver's processors: sv95 §5's 5-term polynomial
/// C1 + C2/ps + C3/pr + C4 ps + C5 pr (f_ecom), or a table [ps - from_s][pr - from_r]; +inf outside the table.
struct CommFunction {
  std::array<double, 5> c{0, 0, 0, 0, 0};
  std::vector<std::vector<double>> table; // rectangular
  int from_s = 1;
  int from_r = 1;

  static CommFunction polynomial(double c1, double c2 = 0, double c3 = 0, double c4 = 0, double c5 = 0);
  static CommFunction values(std::vector<std::vector<double>> table, int from_s = 1, int from_r = 1);
  static CommFunction missing();
  bool is_missing() const { return table.empty() && std::isnan(c[0]); }
  bool is_table() const { return not table.empty(); }
  /// (((C1 + C2/ps) + C3/pr) + C4 ps) + C5 pr, or the table's value; ps, pr >= 1.
  double operator()(int ps, int pr) const;
};

/// How a task's output data set lies on its p processors, hence what a redistribution moves (sv95 §6: FFT-Hist's
/// colffts hands its array on by a transpose).
enum class Distribution {
  block,    // contiguous equal blocks, processor i holds the i-th: processors send only where the blocks overlap
  transpose // every processor holds a slice of every receiver's block: an all-to-all
};
PIPESIM_ENUM_NAMES(Distribution, {block, "block"}, {transpose, "transpose"});

/// sv95's data-parallel task as a program (DESIGN.md §3.8, docs/sv95.md "Simulation (programs)"): on p processors
/// each processor executes sequential + parallel / p + overhead p flops, so that on identical processors of speed s
/// the time is exactly §5's C1 + C2/p + C3 p with C = (sequential, parallel, overhead) / s; then the task hands on
/// `output` bytes laid out by `distribution`.
struct TaskProgram {
  double sequential         = 0; // flops every processor executes (the part that does not parallelise)
  double parallel           = 0; // flops split evenly over the p processors
  double overhead           = 0; // flops per processor and per processor of the instance (C3 p)
  double output             = 0; // bytes of the data set handed on to the next task
  Distribution distribution = Distribution::block;
  /// Flops one of the p processors executes: (sequential + parallel / p) + overhead p.
  double flops_per_host(int p) const { return (sequential + parallel / p) + overhead * p; }
};

/// Task t_i (sv95 §2.1): f_exec_i(p), its memory need (§3.2: the minimum number of processors of an instance)
/// and whether it may be replicated (§2.2).
struct Task {
  std::string name;
  CostFunction exec;
  int p_min       = 1;     // processors an instance needs at least (memory expressed in processors)
  double memory   = 0;     // memory need, in the unit of TaskChain::processor_memory (summed over a module)
  bool replicable = false; // §2.2: legality of replication is given, never guessed
};

/// The chain t_1..t_k with f_icom_{i->i+1}(p) and f_ecom_{i->i+1}(ps, pr) for i = 1..k-1 (stored at [i - 1]),
/// and the external input / output times of the first / last module as functions of its processors per
/// instance (0 by default: sv95 counts the I/O in the first and last tasks' f_exec).
struct TaskChain {
  std::vector<Task> tasks;
  std::vector<CostFunction> icom;
  std::vector<CommFunction> ecom;
  CostFunction input;
  CostFunction output;
  double processor_memory = 1; // memory of one processor, > 0
  /// Empty, or t_i's program at [i - 1] for every task: what the simulator runs as SimGrid parallel tasks.
  std::vector<TaskProgram> programs{};

  int k() const { return static_cast<int>(tasks.size()); }
  /// t_i for 1 <= i <= k (the paper's numbering).
  const Task& task(int i) const { return tasks.at(static_cast<std::size_t>(i - 1)); }
  /// f_icom_{i->i+1} and f_ecom_{i->i+1} for 1 <= i < k.
  const CostFunction& icom_after(int i) const { return icom.at(static_cast<std::size_t>(i - 1)); }
  const CommFunction& ecom_after(int i) const { return ecom.at(static_cast<std::size_t>(i - 1)); }
  /// The tasks have programs: the chain is simulated as SimGrid parallel tasks (simulator/program_actors.hpp).
  bool has_programs() const { return not programs.empty(); }
  /// t_i's program, 1 <= i <= k (precondition: has_programs()).
  const TaskProgram& program(int i) const { return programs.at(static_cast<std::size_t>(i - 1)); }
  /// Name of t_i, or "t<i>" when it has none.
  std::string task_name(int i) const;
  /// The functions a program chain leaves to be measured ("f_icom after colffts", ...): empty when all are given.
  std::vector<std::string> missing_functions() const;

  /// Throws InputError unless k >= 1, every function is given (or missing() in a chain of programs: measured by
  /// `pipesim fit`), there are k - 1 icom and ecom functions, every p_min >= 1, memory >= 0,
  /// processor_memory > 0, coefficients finite, table values >= 0 and finite, table starts >= 1, ecom tables
  /// rectangular.
  void validate() const;
};

/// The processors that hold `memory`: ceil(memory / processor_memory), a quotient within 1e-9 (relative) of an
/// integer counting as that integer (memories are decimal numbers: 0.1 + 0.2 = 0.30000000000000004).
int processors_for_memory(double memory, double processor_memory);

/// Processors an instance of t_i alone needs: max(p_min_i, ceil(memory_i / processor_memory)).
int task_p_min(const TaskChain& chain, int i);

/// A negative (or NaN) time found by check_times: the function, where, and the value.
struct NegativeTime {
  std::string function; // e.g. "f_exec of rowffts"
  int ps       = 0;     // p (or the sender's p)
  int pr       = 0;     // the receiver's p for f_ecom, 0 otherwise
  double value = 0;
  std::string describe() const;
};

/// The first negative time of f over p in [lo, hi] (none when lo > hi).
std::optional<NegativeTime> first_negative(const CostFunction& f, int lo, int hi);
/// The first negative time of f over [lo_s, hi_s] x [lo_r, hi_r].
std::optional<NegativeTime> first_negative(const CommFunction& f, int lo_s, int hi_s, int lo_r, int hi_r);

/// Every time the mappers may evaluate on P processors is >= 0: f_exec_i over [task_p_min(i), P], f_icom_i over
/// [max of both tasks' minimum, P], f_ecom_i over [task_p_min(i), P] x [task_p_min(i + 1), P], input and output
/// over the first and last tasks' ranges. Returns the first negative time found, with its function named.
/// Complexity: O(k P^2) evaluations (f_ecom over pairs of counts); first_negative, O(hi - lo) or O(the rectangle).
std::optional<NegativeTime> check_times(const TaskChain& chain, int P);

} // namespace pipesim
