// sv95 §2: modules composed of tasks (§3.3), response functions f_i (§2.1), throughput 1 / max_i f_i / r_i and
// the bottleneck module (§2.2). Every sv95 mapper and the evaluator use these functions (DESIGN.md §4).
#pragma once

#include "model/mapping.hpp"
#include "model/sv95/task_chain.hpp"

#include <string>
#include <vector>

namespace pipesim {

/// sv95 §2.2 triplet (T, r, p): module T = t_first..t_last, r instances of p processors each.
struct Sv95Module {
  int first                                = 1;
  int last                                 = 1;
  int r                                    = 1;
  int p                                    = 1;
  bool operator==(const Sv95Module&) const = default;
};

/// Processors an instance of module t_first..t_last needs: the largest p_min of its tasks, and the processors that
/// hold the sum of their memories (the tasks' data live together: sv95 §6.3).
int module_p_min(const TaskChain& chain, int first, int last);
/// §2.2: only modules composed exclusively of replicable tasks are replicable.
/// Complexity: O(last - first + 1) for these and the step functions below (module_exec, module_input, ...);
/// sv95_evaluate, check_modules, sv95_modules and sv95_mapping, O(k + m) for k tasks and m modules.
bool module_replicable(const TaskChain& chain, int first, int last);

/// §3.3 composition: the module's time on p processors per instance, without its external communication:
/// f_exec_first(p) + f_icom_{first->first+1}(p) + ... + f_exec_last(p), added left to right.
double module_exec(const TaskChain& chain, int first, int last, int p);
/// The receive step of the module starting at t_first: f_ecom_{first-1->first}(p_prev, p), or the input time
/// input(p) when first == 1 (p_prev is then ignored).
double module_input(const TaskChain& chain, int first, int p_prev, int p);
/// The send step of the module ending at t_last: f_ecom_{last->last+1}(p, p_next), or output(p) when last == k.
double module_output(const TaskChain& chain, int last, int p, int p_next);
/// §2.1 response function f = (receive + exec) + send of one instance of t_first..t_last on p processors, with
/// p_prev and p_next processors per instance of the previous and next modules (sender and receiver take part in
/// the whole communication step). Every mapper computes f in exactly this order, so periods are bit-identical.
double module_response(const TaskChain& chain, int first, int last, int p_prev, int p, int p_next);

/// §2.2 evaluation of a mapping given as triplets.
struct Sv95Evaluation {
  std::vector<double> response; // f_j of each module
  double period     = 0;        // max_j f_j / r_j
  double throughput = 0;        // 1 / period (data sets per unit of time; +inf for a period of 0)
  int bottleneck    = 0;        // index of the first module reaching the period
  int processors    = 0;        // sum_j r_j p_j
  /// One data set alone through the modules (§2.1 with no other data set): input + exec_1 + ecom_{1,2} + exec_2 +
  /// ... + exec_m + output, added left to right (a transfer occupies sender and receiver at once: counted once).
  double latency = 0;
};
/// Precondition: `modules` is a clustering of t_1..t_k (check_modules).
Sv95Evaluation sv95_evaluate(const TaskChain& chain, const std::vector<Sv95Module>& modules);

/// Throws InputError unless the modules cover t_1..t_k in order, r >= 1, p >= module_p_min, r == 1 for a module
/// that is not replicable, and sum r p <= P (P < 0: not checked). Messages name the module and the limit.
void check_modules(const TaskChain& chain, const std::vector<Sv95Module>& modules, int P = -1);

/// The triplets of a mapping whose intervals are modules, each replica a group of processors: InputError when the
/// groups of an interval differ in size (a triplet has one p), a replicated interval is not dealt, or a processor is
/// in two instances (§2.2: each processor belongs to one instance of one module).
std::vector<Sv95Module> sv95_modules(const Mapping& mapping);
/// The mapping of triplets on the homogeneous machine: module j's instances are groups of consecutive processor
/// indices, after those of modules 1..j-1, dealt (DESIGN.md §3.7-3.8).
Mapping sv95_mapping(const std::vector<Sv95Module>& modules);

/// "[t1] r=8 p=3 | [t2-t3] r=10 p=4"; with a chain, task names: "[colffts] r=8 p=3 | [rowffts, hist] r=10 p=4".
std::string to_text(const std::vector<Sv95Module>& modules);
std::string to_text(const std::vector<Sv95Module>& modules, const TaskChain& chain);

} // namespace pipesim
