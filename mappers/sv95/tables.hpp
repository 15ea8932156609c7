// What the sv95 mappers share: their refusals, the chain's functions tabulated for p = 1..P, and the result.
#pragma once

#include "mappers/mapper.hpp"
#include "model/sv95/response.hpp"

#include <optional>
#include <string>
#include <vector>

namespace pipesim {

/// What the sv95 mappers are: the task chain's period, read from Problem::task_chain, Fully Homogeneous platforms
/// (sv95 §2.2: the functions depend on processor counts only, so any processors are as good as any others), any
/// communication model (not used), interval mappings (modules of consecutive tasks).
MapperInfo sv95_info(std::string name, std::string description, Paper paper, MapperFamily family, bool exact,
                     std::string complexity);

/// Empty when an sv95 mapper can map a problem its sv95_info accepts: the task chain validates, with one pipeline
/// stage per task, every response function given, no time below 0 on P = platform.p() processors (check_times), no
/// task needing more than P processors.
std::optional<std::string> sv95_refusal(const Problem& problem);

/// The chain's functions on P processors, tabulated once: every value is the one model/sv95/response.hpp computes
/// (module_exec, module_input, module_output), so response() is bit-identical to module_response().
class Sv95Tables {
public:
  Sv95Tables(const TaskChain& chain, int P);

  int k() const { return k_; }
  int P() const { return P_; }
  int p_min(int first, int last) const { return p_min_[pair(first, last)]; }
  bool replicable(int first, int last) const { return replicable_[pair(first, last)] != 0; }
  double exec(int first, int last, int p) const { return exec_[pair(first, last) * stride() + p]; }
  /// module_input(first, p_prev, p): p_prev in 1..P (ignored for first == 1).
  double input(int first, int p_prev, int p) const
  {
    return first == 1 ? io_[p] : ecom_[(first - 2) * stride() * stride() + p_prev * stride() + p];
  }
  /// module_output(last, p, p_next): p_next in 1..P (ignored for last == k).
  double output(int last, int p, int p_next) const
  {
    return last == k_ ? io_[stride() + p] : ecom_[(last - 1) * stride() * stride() + p * stride() + p_next];
  }
  /// f_ecom after t_i, row of sender p: the P + 1 values for p_next = 0..P (index 0 unused).
  const double* ecom_row(int i, int p) const { return &ecom_[(i - 1) * stride() * stride() + p * stride()]; }
  double response(int first, int last, int p_prev, int p, int p_next) const
  {
    return (input(first, p_prev, p) + exec(first, last, p)) + output(last, p, p_next);
  }
  /// The fewest processors a clustering of t_1..t_{a-1} (of t_{b+1}..t_k) needs: its modules' p_min added.
  int min_before(int a) const { return min_before_[static_cast<std::size_t>(a)]; }
  int min_after(int b) const { return min_after_[static_cast<std::size_t>(b)]; }

private:
  std::size_t stride() const { return static_cast<std::size_t>(P_) + 1; }
  std::size_t pair(int first, int last) const
  {
    return static_cast<std::size_t>(first - 1) * static_cast<std::size_t>(k_) + static_cast<std::size_t>(last - 1);
  }
  int k_;
  int P_;
  std::vector<int> p_min_;
  std::vector<char> replicable_;
  std::vector<double> exec_; // [pair][p]
  std::vector<double> io_;   // input(p) at [p], output(p) at [P + 1 + p]
  std::vector<double> ecom_; // [i - 1][ps][pr]
  std::vector<int> min_before_;
  std::vector<int> min_after_;
};

/// The result of a mapper that found `modules`: the mapping (sv95_mapping), its §2.2 period as the objective, and
/// the statistics `throughput`, `bottleneck` (1-based module), `modules` and `processors` (sum r p).
MapperResult sv95_result(const TaskChain& chain, const std::vector<Sv95Module>& modules, SolveStatus status);

/// An infeasible result (no clustering fits on P processors): empty mapping, objective +inf.
MapperResult sv95_infeasible();

} // namespace pipesim
