// Data-parallel module instances running their tasks' programs as SimGrid parallel tasks (DESIGN.md §3.8;
// program_actors.hpp).
#include "simulator/program_actors.hpp"

#include "base/input_error.hpp"
#include "model/sv95/program.hpp"
#include "model/sv95/response.hpp"
#include "simulator/module_actors.hpp"
#include "simulator/module_instances.hpp"
#include "simulator/ptask.hpp"

#include <algorithm>
#include <deque>
#include <fmt/format.h>
#include <memory>
#include <set>
#include <simgrid/s4u.hpp>
#include <stdexcept>

namespace sg4 = simgrid::s4u;

namespace pipesim {

void check_program_chain(const TaskChain& chain, const SimulationSettings& settings, const std::string& what)
{
  if (settings.failures.enabled() || !settings.crashes.empty())
    throw InputError::keyed("simulation.failures", fmt::format("{} are simulated without failures", what));
  if (!chain.has_programs())
    throw InputError::keyed("task_chain.tasks", fmt::format("{} need a program on every task", what));
  chain.validate();
}

namespace detail { // named: ProgramDeployment holds a ProgramRun (GCC's -Wsubobject-linkage)

/// Sender instance a of module j meets receiver instance b of module j + 1 for each data set they share, in
/// increasing order on both sides: the sender offers it (`ready`), the receiver runs the transfer and releases the
/// sender (`done`) with its duration.
struct ProgramMeeting {
  sg4::SemaphorePtr ready = sg4::Semaphore::create(0);
  sg4::SemaphorePtr done  = sg4::Semaphore::create(0);
  std::deque<int> offered;
  double duration = 0;
};

/// What the instance actors share (module_instances.hpp), their hosts and their meetings.
struct ProgramRun : ModuleRunState {
  using ModuleRunState::ModuleRunState;
  std::vector<std::vector<std::vector<sg4::Host*>>> hosts; // [module][instance]
  // [j][a][b]: instance a of module j to instance b of module j + 1
  std::vector<std::vector<std::vector<std::unique_ptr<ProgramMeeting>>>> meetings;
};

const TaskProgram& program_of(const ProgramRun& run, int task) { return run.chain.program(task); }

/// Data set k from instance k mod r_{j-1} of module j - 1 to instance b of module j, run by the receiver.
double program_receive(ProgramRun& run, std::size_t j, int b, int k)
{
  int a                   = k % run.modules[j - 1].r;
  ProgramMeeting& meeting = *run.meetings[j - 1][static_cast<std::size_t>(a)][static_cast<std::size_t>(b)];
  meeting.ready->acquire();
  if (meeting.offered.front() != k)
    throw std::logic_error(
        fmt::format("module {} instance {}: got data set {} for {}", j, b, meeting.offered.front(), k));
  meeting.offered.pop_front();
  meeting.duration = run_transfer(run.hosts[j - 1][static_cast<std::size_t>(a)],
                                  run.hosts[j][static_cast<std::size_t>(b)], program_of(run, run.modules[j].first - 1));
  meeting.done->release();
  return meeting.duration;
}

/// Data set k from instance b of module j to instance k mod r_{j+1} of module j + 1: offered, then waited for.
double program_send(ProgramRun& run, std::size_t j, int b, int k)
{
  int c                   = k % run.modules[j + 1].r;
  ProgramMeeting& meeting = *run.meetings[j][static_cast<std::size_t>(b)][static_cast<std::size_t>(c)];
  meeting.offered.push_back(k);
  meeting.ready->release();
  meeting.done->acquire();
  return meeting.duration;
}

/// Instance b of module j: data sets b, b + r, b + 2r, ... in order.
void program_instance(ProgramRun& run, std::size_t j, int b)
{
  const Sv95Module& m                  = run.modules[j];
  const std::vector<sg4::Host*>& hosts = run.hosts[j][static_cast<std::size_t>(b)];
  const bool first = j == 0, last = j + 1 == run.modules.size();
  InstanceBusy& busy = run.busy[j][static_cast<std::size_t>(b)];
  for (int k = b; k < run.datasets; k += m.r) {
    if (first)
      busy_for(run.chain.input(m.p), busy.receive);
    else
      busy.receive += program_receive(run, j, b, k);
    for (int i = m.first; i <= m.last; ++i) {
      busy.compute += run_program_task(hosts, program_of(run, i));
      if (i < m.last) busy.compute += run_internal_redistribution(hosts, program_of(run, i));
    }
    if (!last) {
      busy.send += program_send(run, j, b, k);
      continue;
    }
    busy_for(run.chain.output(m.p), busy.send);
    run.arrive(k);
  }
}

/// The instances' hosts (each processor in one instance only) and the meetings between neighbour modules.
void deploy_program_hosts(ProgramRun& run, const Platform& platform, const Mapping& mapping)
{
  std::set<int> seen;
  for (std::size_t j = 0; j < run.modules.size(); ++j) {
    auto& instances = run.hosts.emplace_back();
    for (const ProcessorGroup& group : mapping.interval(static_cast<int>(j)).replicas) {
      auto& hosts = instances.emplace_back();
      for (int u : group) {
        if (!seen.insert(u).second)
          throw InputError::keyed(interval_key(static_cast<int>(j), "replicas"), platform.node_name(u),
                                  "this processor is in two module instances; a program runs each instance on hosts "
                                  "of its own");
        hosts.push_back(sg4::Host::by_name(platform.node_name(u)));
      }
    }
  }
  for (std::size_t j = 0; j + 1 < run.modules.size(); ++j) {
    auto& from = run.meetings.emplace_back(static_cast<std::size_t>(run.modules[j].r));
    for (auto& to : from)
      for (int c = 0; c < run.modules[j + 1].r; ++c)
        to.push_back(std::make_unique<ProgramMeeting>());
  }
}

/// An upper bound of one data set's time through the modules: each step alone, its flops at the slowest speed of the
/// mapping's processors and every byte it moves one after the other over their slowest link (plus its latency).
double program_dataset_bound(const ProgramRun& run, const Platform& platform, const Mapping& mapping)
{
  std::vector<int> nodes = mapping.processors();
  double slowest         = unbounded;
  double per_byte        = 0;
  double latency         = 0;
  for (int u : nodes) {
    slowest = std::min(slowest, platform.speed(u));
    for (int v : nodes)
      if (u != v && platform.reachable(u, v)) {
        per_byte = std::max(per_byte, 1 / platform.bandwidth(u, v));
        latency  = std::max(latency, platform.latency(u, v));
      }
  }
  auto moved = [&](const std::vector<double>& bytes) {
    double sum = 0;
    for (double b : bytes)
      sum += b;
    return sum > 0 ? sum * per_byte + latency : 0.0;
  };
  double one = 0;
  for (std::size_t j = 0; j < run.modules.size(); ++j) {
    const Sv95Module& m = run.modules[j];
    if (j == 0) one += run.chain.input(m.p);
    for (int i = m.first; i <= m.last; ++i) {
      one += program_of(run, i).flops_per_host(m.p) / slowest;
      if (i < m.last) one += moved(internal_redistribution_bytes(program_of(run, i), m.p));
    }
    one += j + 1 < run.modules.size() ? moved(redistribution_bytes(program_of(run, m.last), m.p, run.modules[j + 1].p))
                                      : run.chain.output(m.p);
  }
  return one;
}

} // namespace detail

void check_program_job(const SimulationJob& job)
{
  check_program_chain(*job.task_chain, job.settings, "programs (task_chain tasks with `program`)");
  detail::ProgramRun run{*job.task_chain, job.mapping};
  check_modules(run.chain, run.modules);
  refuse_clock_overflow(job.settings.datasets, detail::program_dataset_bound(run, job.platform, job.mapping),
                        "through these modules",
                        "give the programs in larger units (e.g. Gflop and GB, with the platform's speeds and "
                        "bandwidths to match)");
}

namespace detail {
/// The programs' execution of a run (program_actors.hpp).
class ProgramDeployment final : public ModuleInstancesDeployment<ProgramRun> {
public:
  ProgramDeployment(const SimulationJob& job, const SimulationSettings& run) : ModuleInstancesDeployment(job, run)
  {
    deploy_program_hosts(run_, platform_, mapping_);
  }

  void deploy() override
  {
    deploy_instances([this](std::size_t j, int b) { return run_.hosts[j][static_cast<std::size_t>(b)].front(); },
                     program_instance);
  }
};
} // namespace detail

std::unique_ptr<Deployment> make_program_deployment(const SimulationJob& job, const SimulationSettings& run, RunInputs)
{
  return std::make_unique<detail::ProgramDeployment>(job, run);
}

} // namespace pipesim
