// sv95 mappers' shared refusals, tables and results.
#include "mappers/sv95/tables.hpp"

#include "base/input_error.hpp"

#include <algorithm>
#include <climits>
#include <fmt/format.h>
#include <limits>

namespace pipesim {

MapperInfo sv95_info(std::string name, std::string description, Paper paper, MapperFamily family, bool exact,
                     std::string complexity)
{
  MapperInfo info;
  info.name             = std::move(name);
  info.description      = std::move(description);
  info.paper            = paper;
  info.family           = family;
  info.objective        = MapperObjective::task_chain_period;
  info.platform_classes = {PlatformClass::fully_homogeneous};
  info.input            = MapperInput::task_chain;
  info.mapping          = MappingRule::interval;
  info.exact            = exact;
  info.complexity       = std::move(complexity);
  info.restriction = "sv95's cost functions depend on processor counts only, which needs a fully-homogeneous machine";
  return info;
}

std::optional<std::string> sv95_refusal(const Problem& problem)
{
  const TaskChain& chain = *problem.task_chain; // sv95_info: present
  try {
    chain.validate();
  } catch (const InputError& e) {
    return e.what();
  }
  if (auto missing = chain.missing_functions(); not missing.empty())
    return fmt::format("{} is not given: the mappers need every response function (give it, or run `pipesim fit`, "
                       "which measures it from the programs)",
                       missing.front());
  if (problem.pipeline.n() != chain.k())
    return fmt::format("the pipeline has {} stages and the task chain {} tasks: one stage per task",
                       problem.pipeline.n(), chain.k());
  int P = problem.platform.p();
  for (int i = 1; i <= chain.k(); ++i)
    if (int p_min = task_p_min(chain, i); p_min > P)
      return fmt::format("task {} needs {} processors per instance, more than P = {}", chain.task_name(i), p_min, P);
  if (auto negative = check_times(chain, P)) return negative->describe();
  return std::nullopt;
}

Sv95Tables::Sv95Tables(const TaskChain& chain, int P) : k_(chain.k()), P_(P)
{
  std::size_t pairs = static_cast<std::size_t>(k_) * static_cast<std::size_t>(k_);
  p_min_.assign(pairs, 0);
  replicable_.assign(pairs, 0);
  exec_.assign(pairs * stride(), std::numeric_limits<double>::infinity());
  for (int a = 1; a <= k_; ++a)
    for (int b = a; b <= k_; ++b) {
      p_min_[pair(a, b)]      = module_p_min(chain, a, b);
      replicable_[pair(a, b)] = module_replicable(chain, a, b) ? 1 : 0;
      for (int p = 1; p <= P; ++p)
        exec_[pair(a, b) * stride() + p] = module_exec(chain, a, b, p);
    }
  io_.assign(2 * stride(), 0);
  for (int p = 1; p <= P; ++p) {
    io_[p]            = module_input(chain, 1, 0, p);
    io_[stride() + p] = module_output(chain, k_, p, 0);
  }
  ecom_.assign(static_cast<std::size_t>(k_ - 1) * stride() * stride(), 0);
  for (int i = 1; i < k_; ++i)
    for (int ps = 1; ps <= P; ++ps)
      for (int pr = 1; pr <= P; ++pr)
        ecom_[(i - 1) * stride() * stride() + ps * stride() + pr] = module_output(chain, i, ps, pr);
  // min_before_[a]: the cheapest clustering of t_1..t_{a-1} at p_min per module (a small DP over module starts)
  min_before_.assign(static_cast<std::size_t>(k_) + 2, INT_MAX / 4);
  min_before_[1] = 0;
  for (int b = 1; b <= k_; ++b)
    for (int a = 1; a <= b; ++a)
      min_before_[b + 1] = std::min(min_before_[b + 1], min_before_[a] + p_min(a, b));
  min_after_.assign(static_cast<std::size_t>(k_) + 1, INT_MAX / 4);
  min_after_[k_] = 0;
  for (int a = k_; a >= 1; --a)
    for (int b = a; b <= k_; ++b)
      min_after_[a - 1] = std::min(min_after_[a - 1], min_after_[b] + p_min(a, b));
}

MapperResult sv95_result(const TaskChain& chain, const std::vector<Sv95Module>& modules, SolveStatus status)
{
  Sv95Evaluation e = sv95_evaluate(chain, modules);
  MapperResult result;
  result.mapping                  = sv95_mapping(modules);
  result.status                   = status;
  result.objective                = e.period;
  result.statistics["throughput"] = e.throughput;
  result.statistics["bottleneck"] = e.bottleneck + 1;
  result.statistics["modules"]    = static_cast<double>(modules.size());
  result.statistics["processors"] = e.processors;
  return result;
}

MapperResult sv95_infeasible()
{
  MapperResult result;
  result.status    = SolveStatus::infeasible;
  result.objective = unbounded;
  return result;
}

} // namespace pipesim
