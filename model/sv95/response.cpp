// sv95 §2 and §3.3: module composition, response functions, throughput and bottleneck.
#include "model/sv95/response.hpp"

#include "base/input_error.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <limits>
#include <map>

namespace pipesim {

int module_p_min(const TaskChain& chain, int first, int last)
{
  int p_min     = 1;
  double memory = 0;
  for (int i = first; i <= last; ++i) {
    p_min = std::max(p_min, chain.task(i).p_min);
    memory += chain.task(i).memory;
  }
  return std::max(p_min, processors_for_memory(memory, chain.processor_memory));
}

bool module_replicable(const TaskChain& chain, int first, int last)
{
  for (int i = first; i <= last; ++i)
    if (not chain.task(i).replicable) return false;
  return true;
}

double module_exec(const TaskChain& chain, int first, int last, int p)
{
  double time = 0;
  for (int i = first; i <= last; ++i) {
    time += chain.task(i).exec(p);
    if (i < last) time += chain.icom_after(i)(p);
  }
  return time;
}

double module_input(const TaskChain& chain, int first, int p_prev, int p)
{
  return first == 1 ? chain.input(p) : chain.ecom_after(first - 1)(p_prev, p);
}

double module_output(const TaskChain& chain, int last, int p, int p_next)
{
  return last == chain.k() ? chain.output(p) : chain.ecom_after(last)(p, p_next);
}

double module_response(const TaskChain& chain, int first, int last, int p_prev, int p, int p_next)
{
  return (module_input(chain, first, p_prev, p) + module_exec(chain, first, last, p)) +
         module_output(chain, last, p, p_next);
}

Sv95Evaluation sv95_evaluate(const TaskChain& chain, const std::vector<Sv95Module>& modules)
{
  Sv95Evaluation e;
  for (std::size_t j = 0; j < modules.size(); ++j) {
    const Sv95Module& m = modules[j];
    int p_prev          = j > 0 ? modules[j - 1].p : 0;
    int p_next          = j + 1 < modules.size() ? modules[j + 1].p : 0;
    double f            = module_response(chain, m.first, m.last, p_prev, m.p, p_next);
    e.response.push_back(f);
    // §2.2: the period is max_j f_j / r_j, reached first by the bottleneck module
    if (double term = f / m.r; j == 0 || term > e.period) {
      e.period     = term;
      e.bottleneck = static_cast<int>(j);
    }
    e.processors += m.r * m.p;
    if (j == 0) e.latency = module_input(chain, m.first, p_prev, m.p);
    e.latency = (e.latency + module_exec(chain, m.first, m.last, m.p)) + module_output(chain, m.last, m.p, p_next);
  }
  e.throughput = e.period > 0 ? 1 / e.period : std::numeric_limits<double>::infinity();
  return e;
}

void check_modules(const TaskChain& chain, const std::vector<Sv95Module>& modules, int P)
{
  int next      = 1;
  long long sum = 0;
  for (std::size_t j = 0; j < modules.size(); ++j) {
    const Sv95Module& m     = modules[j];
    const int mj            = static_cast<int>(j); // module j is the mapping's interval j
    const std::string value = fmt::format("tasks {}-{}", m.first, m.last);
    if (m.first != next || m.last < m.first || m.last > chain.k())
      throw InputError::keyed(
          interval_key(mj, "stages"), value,
          fmt::format("modules must cover tasks 1..{} in order (expected one starting at t{})", chain.k(), next));
    if (m.r < 1) throw InputError::keyed(interval_key(mj, "replicas"), m.r, "expected at least one instance");
    if (int p_min = module_p_min(chain, m.first, m.last); m.p < p_min)
      throw InputError::keyed(interval_key(mj, "replicas"), m.p,
                              fmt::format("processors per instance, below the module's minimum {}", p_min));
    if (m.r > 1 && not module_replicable(chain, m.first, m.last))
      throw InputError::keyed(interval_key(mj, "replicas"), m.r,
                              "instances, but the module holds a task that is not replicable");
    sum += static_cast<long long>(m.r) * m.p;
    next = m.last + 1;
  }
  if (next != chain.k() + 1)
    throw InputError::keyed("mapping",
                            fmt::format("modules must cover tasks 1..{} (they stop at t{})", chain.k(), next - 1));
  if (P >= 0 && sum > P)
    throw InputError::keyed("mapping", sum, fmt::format("processors used by the modules, more than P = {}", P));
}

std::vector<Sv95Module> sv95_modules(const Mapping& mapping)
{
  std::vector<Sv95Module> modules;
  std::map<int, const Interval*> holder; // processor -> the module whose instance holds it (§2.2: one per processor)
  for (int j = 0; j < mapping.m(); ++j) {
    const Interval& in = mapping.interval(j);
    for (std::size_t r = 0; r < in.replicas.size(); ++r)
      for (int u : in.replicas[r])
        if (auto [it, added] = holder.emplace(u, &in); !added)
          throw InputError::keyed(replica_key(j, r), u,
                                  fmt::format("processor {} (platform index) already runs an instance of the module "
                                              "[{}-{}]; seed 001 gives each processor to one instance of one module "
                                              "(an instance is busy for its whole response time)",
                                              u, it->second->first, it->second->last));
    Sv95Module m{in.first, in.last, static_cast<int>(in.replicas.size()),
                 in.replicas.empty() ? 0 : static_cast<int>(in.replicas.front().size())};
    for (std::size_t r = 0; r < in.replicas.size(); ++r)
      if (static_cast<int>(in.replicas[r].size()) != m.p)
        throw InputError::keyed(replica_key(j, r), in.replicas[r].size(),
                                fmt::format("processors in this instance and {} in the first; a seed 001 module (T, r, "
                                            "p) has p processors in every instance",
                                            m.p));
    if (m.r > 1 && in.replication != Replication::deal)
      throw InputError::keyed(interval_key(j, "replication"), in.replication,
                              "a replicated seed 001 module deals its data sets (replication: deal)");
    modules.push_back(m);
  }
  return modules;
}

Mapping sv95_mapping(const std::vector<Sv95Module>& modules)
{
  Mapping mapping;
  int u = 0;
  for (const Sv95Module& m : modules) {
    Interval in;
    in.first       = m.first;
    in.last        = m.last;
    in.replication = Replication::deal;
    for (int r = 0; r < m.r; ++r) {
      ProcessorGroup group;
      for (int i = 0; i < m.p; ++i)
        group.push_back(u++);
      in.replicas.push_back(std::move(group));
    }
    mapping.intervals.push_back(std::move(in));
  }
  return mapping;
}

namespace {
std::string module_text(const Sv95Module& m, const std::string& tasks)
{
  return fmt::format("[{}] r={} p={}", tasks, m.r, m.p);
}
} // namespace

std::string to_text(const std::vector<Sv95Module>& modules)
{
  std::string out;
  for (const Sv95Module& m : modules) {
    std::string tasks = m.first == m.last ? fmt::format("t{}", m.first) : fmt::format("t{}-t{}", m.first, m.last);
    out += (out.empty() ? "" : " | ") + module_text(m, tasks);
  }
  return out;
}

std::string to_text(const std::vector<Sv95Module>& modules, const TaskChain& chain)
{
  std::string out;
  for (const Sv95Module& m : modules) {
    std::string tasks;
    for (int i = m.first; i <= m.last; ++i)
      tasks += (i == m.first ? "" : ", ") + chain.task_name(i);
    out += (out.empty() ? "" : " | ") + module_text(m, tasks);
  }
  return out;
}

} // namespace pipesim
