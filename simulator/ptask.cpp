// sv95's program steps as SimGrid parallel tasks (ptask.hpp).
#include "simulator/ptask.hpp"

#include "model/sv95/program.hpp"

#include <algorithm>
#include <simgrid/s4u.hpp>

namespace sg4 = simgrid::s4u;

namespace pipesim {

namespace {
/// One parallel task; nothing to compute and nothing to move is no task (0 s).
double timed_ptask(const std::vector<sg4::Host*>& hosts, const std::vector<double>& flops,
                   const std::vector<double>& bytes)
{
  auto positive = [](double x) { return x > 0; };
  if (std::ranges::none_of(flops, positive) && std::ranges::none_of(bytes, positive)) return 0;
  double start = sg4::Engine::get_clock();
  sg4::this_actor::parallel_execute(hosts, flops, bytes);
  return sg4::Engine::get_clock() - start;
}
} // namespace

double run_program_task(const std::vector<sg4::Host*>& hosts, const TaskProgram& program)
{
  int p = static_cast<int>(hosts.size());
  return timed_ptask(hosts, std::vector<double>(hosts.size(), program.flops_per_host(p)), {});
}

double run_internal_redistribution(const std::vector<sg4::Host*>& hosts, const TaskProgram& program)
{
  return timed_ptask(hosts, std::vector<double>(hosts.size(), 0.0),
                     internal_redistribution_bytes(program, static_cast<int>(hosts.size())));
}

double run_transfer(const std::vector<sg4::Host*>& senders, const std::vector<sg4::Host*>& receivers,
                    const TaskProgram& program)
{
  const std::size_t ps = senders.size(), pr = receivers.size(), n = ps + pr;
  std::vector<sg4::Host*> hosts = senders;
  hosts.insert(hosts.end(), receivers.begin(), receivers.end());
  std::vector<double> pairs = redistribution_bytes(program, static_cast<int>(ps), static_cast<int>(pr));
  std::vector<double> bytes(n * n, 0.0); // row i < ps: sender i; column ps + j: receiver j
  for (std::size_t i = 0; i < ps; ++i)
    for (std::size_t j = 0; j < pr; ++j)
      bytes[i * n + ps + j] = pairs[i * pr + j];
  return timed_ptask(hosts, std::vector<double>(n, 0.0), bytes);
}

} // namespace pipesim
