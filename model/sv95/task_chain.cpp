// sv95's task chain: cost functions (§5), memory needs and checks.
#include "model/sv95/task_chain.hpp"

#include "platforms/platform.hpp" // infinity

#include "base/input_error.hpp"

#include <algorithm>
#include <climits>
#include <cmath>
#include <fmt/format.h>
#include <limits>

namespace pipesim {

namespace {

bool finite_all(const auto& values)
{
  return std::ranges::all_of(values, [](double x) { return std::isfinite(x); });
}

bool valid_table(const std::vector<double>& table)
{
  return std::ranges::all_of(table, [](double x) { return std::isfinite(x) && x >= 0; });
}

/// The scenario key of task i's `child` ("task_chain.tasks[i-1].exec"), or of the chain's own key when i is 0.
std::string task_key(int i, const char* child)
{
  return i == 0 ? fmt::format("task_chain.{}", child) : fmt::format("task_chain.tasks[{}].{}", i - 1, child);
}

void check_function(const CostFunction& f, const std::string& key, const std::string& what)
{
  if (f.is_missing()) return; // TaskChain::validate accepts it in a chain of programs only
  if (not finite_all(f.c))
    throw InputError::keyed(key, fmt::format("{}: polynomial coefficients must be finite", what));
  if (f.from < 1) throw InputError::keyed(key, f.from, fmt::format("{}: a table starts at p >= 1", what));
  if (not valid_table(f.table))
    throw InputError::keyed(key, fmt::format("{}: table values must be finite and >= 0", what));
}

void check_function(const CommFunction& f, const std::string& key, const std::string& what)
{
  if (f.is_missing()) return;
  if (not finite_all(f.c))
    throw InputError::keyed(key, fmt::format("{}: polynomial coefficients must be finite", what));
  if (f.from_s < 1 || f.from_r < 1)
    throw InputError::keyed(key, fmt::format("{}: a table starts at ps, pr >= 1", what));
  for (const auto& row : f.table) {
    if (row.size() != f.table.front().size() || row.empty())
      throw InputError::keyed(key, fmt::format("{}: table rows must all have the same (non-zero) length", what));
    if (not valid_table(row))
      throw InputError::keyed(key, fmt::format("{}: table values must be finite and >= 0", what));
  }
}
void check_program(const TaskProgram& program, int i, const std::string& task)
{
  for (double v : {program.sequential, program.parallel, program.overhead, program.output})
    if (not(v >= 0) || not std::isfinite(v))
      throw InputError::keyed(task_key(i, "program"), v,
                              fmt::format("task {}: a program's flops and bytes must be >= 0 and finite", task));
}
} // namespace

CostFunction CostFunction::polynomial(double c1, double c2, double c3)
{
  CostFunction f;
  f.c = {c1, c2, c3};
  return f;
}

CostFunction CostFunction::values(std::vector<double> values, int first)
{
  CostFunction f;
  f.table = std::move(values);
  f.from  = first;
  return f;
}

double CostFunction::operator()(int p) const
{
  if (table.empty()) {
    double x = static_cast<double>(p);
    return (c[0] + c[1] / x) + c[2] * x;
  }
  if (p < from || p - from >= static_cast<int>(table.size())) return infinity;
  return table[static_cast<std::size_t>(p - from)];
}

int CostFunction::last_p() const { return table.empty() ? INT_MAX / 2 : from + static_cast<int>(table.size()) - 1; }

CommFunction CommFunction::polynomial(double c1, double c2, double c3, double c4, double c5)
{
  CommFunction f;
  f.c = {c1, c2, c3, c4, c5};
  return f;
}

CommFunction CommFunction::values(std::vector<std::vector<double>> values, int first_s, int first_r)
{
  CommFunction f;
  f.table  = std::move(values);
  f.from_s = first_s;
  f.from_r = first_r;
  return f;
}

double CommFunction::operator()(int ps, int pr) const
{
  if (table.empty()) {
    double s = static_cast<double>(ps);
    double r = static_cast<double>(pr);
    return (((c[0] + c[1] / s) + c[2] / r) + c[3] * s) + c[4] * r;
  }
  if (ps < from_s || ps - from_s >= static_cast<int>(table.size())) return infinity;
  const auto& row = table[static_cast<std::size_t>(ps - from_s)];
  if (pr < from_r || pr - from_r >= static_cast<int>(row.size())) return infinity;
  return row[static_cast<std::size_t>(pr - from_r)];
}

CostFunction CostFunction::missing() { return polynomial(std::numeric_limits<double>::quiet_NaN()); }

CommFunction CommFunction::missing() { return polynomial(std::numeric_limits<double>::quiet_NaN()); }

std::vector<std::string> TaskChain::missing_functions() const
{
  std::vector<std::string> out;
  for (int i = 1; i <= k(); ++i) {
    if (task(i).exec.is_missing()) out.push_back(fmt::format("f_exec of {}", task_name(i)));
    if (i < k() && icom_after(i).is_missing()) out.push_back(fmt::format("f_icom after {}", task_name(i)));
    if (i < k() && ecom_after(i).is_missing()) out.push_back(fmt::format("f_ecom after {}", task_name(i)));
  }
  return out;
}

std::string TaskChain::task_name(int i) const
{
  const std::string& name = task(i).name;
  return name.empty() ? fmt::format("t{}", i) : name;
}

void TaskChain::validate() const
{
  if (tasks.empty()) throw InputError::keyed("task_chain.tasks", "expected at least one task");
  std::size_t pairs = tasks.size() - 1;
  if (icom.size() != pairs || ecom.size() != pairs)
    throw InputError::keyed("task_chain.tasks",
                            fmt::format("{} tasks need {} f_icom and {} f_ecom functions, got {} and {}", tasks.size(),
                                        pairs, pairs, icom.size(), ecom.size()));
  if (not programs.empty() && programs.size() != tasks.size())
    throw InputError::keyed("task_chain.tasks", fmt::format("{} tasks and {} programs (one per task, or none)",
                                                            tasks.size(), programs.size()));
  if (not(processor_memory > 0) || not std::isfinite(processor_memory))
    throw InputError::keyed("task_chain.processor_memory", processor_memory, "expected a finite number > 0");
  for (int i = 1; i <= k(); ++i) {
    const Task& t = task(i);
    if (t.p_min < 1) throw InputError::keyed(task_key(i, "p_min"), t.p_min, "expected an integer >= 1");
    if (not(t.memory >= 0) || not std::isfinite(t.memory))
      throw InputError::keyed(task_key(i, "memory"), t.memory, "expected a finite number >= 0");
    check_function(t.exec, task_key(i, "exec"), fmt::format("f_exec of {}", task_name(i)));
    if (has_programs()) check_program(program(i), i, task_name(i));
    if (i < k()) {
      check_function(icom_after(i), task_key(i, "icom"), fmt::format("f_icom after {}", task_name(i)));
      check_function(ecom_after(i), task_key(i, "ecom"), fmt::format("f_ecom after {}", task_name(i)));
    }
  }
  check_function(input, task_key(0, "input"), "input");
  check_function(output, task_key(0, "output"), "output");
  if (auto missing = missing_functions(); not missing.empty() && not has_programs())
    throw InputError::keyed("task_chain.tasks", fmt::format("{} is not given", missing.front()));
}

int processors_for_memory(double memory, double processor_memory)
{
  // Memories are decimal numbers (0.1 + 0.2 = 0.30000000000000004): a quotient within 1e-9 of an integer is it.
  double q       = memory / processor_memory;
  double nearest = std::round(q);
  if (std::fabs(q - nearest) <= 1e-9 * std::max(1.0, q)) return static_cast<int>(nearest);
  return static_cast<int>(std::min(std::ceil(q), static_cast<double>(INT_MAX / 2)));
}

int task_p_min(const TaskChain& chain, int i)
{
  const Task& t = chain.task(i);
  return std::max(t.p_min, processors_for_memory(t.memory, chain.processor_memory));
}

std::string NegativeTime::describe() const
{
  std::string where = pr > 0 ? fmt::format("(ps, pr) = ({}, {})", ps, pr) : fmt::format("p = {}", ps);
  return fmt::format("{} at {} is {} (a time must be >= 0)", function, where, value);
}

std::optional<NegativeTime> first_negative(const CostFunction& f, int lo, int hi)
{
  for (int p = lo; p <= std::min(hi, f.last_p()); ++p)
    if (double x = f(p); not(x >= 0)) return NegativeTime{"f", p, 0, x};
  return std::nullopt;
}

std::optional<NegativeTime> first_negative(const CommFunction& f, int lo_s, int hi_s, int lo_r, int hi_r)
{
  for (int ps = lo_s; ps <= hi_s; ++ps)
    for (int pr = lo_r; pr <= hi_r; ++pr)
      if (double x = f(ps, pr); not(x >= 0)) return NegativeTime{"f", ps, pr, x};
  return std::nullopt;
}

std::optional<NegativeTime> check_times(const TaskChain& chain, int P)
{
  auto named = [](std::optional<NegativeTime> found, std::string function) {
    if (found) found->function = std::move(function);
    return found;
  };
  int k = chain.k();
  if (auto n = named(first_negative(chain.input, task_p_min(chain, 1), P), "the input time")) return n;
  if (auto n = named(first_negative(chain.output, task_p_min(chain, k), P), "the output time")) return n;
  for (int i = 1; i <= k; ++i) {
    int lo = task_p_min(chain, i);
    if (auto n = named(first_negative(chain.task(i).exec, lo, P), fmt::format("f_exec of {}", chain.task_name(i))))
      return n;
    if (i == k) break;
    int next         = task_p_min(chain, i + 1);
    std::string pair = fmt::format(" {} -> {}", chain.task_name(i), chain.task_name(i + 1));
    if (auto n = named(first_negative(chain.icom_after(i), std::max(lo, next), P), "f_icom" + pair)) return n;
    if (auto n = named(first_negative(chain.ecom_after(i), lo, P, next, P), "f_ecom" + pair)) return n;
  }
  return std::nullopt;
}

} // namespace pipesim
