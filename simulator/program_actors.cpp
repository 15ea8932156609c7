// Data-parallel module instances running their tasks' programs as SimGrid parallel tasks (DESIGN.md §3.8;
// program_actors.hpp).
#include "simulator/program_actors.hpp"

#include "base/input_error.hpp"
#include "model/sv95/response.hpp"
#include "platforms/simgrid/simgrid_platform.hpp"
#include "simulator/module_actors.hpp"
#include "simulator/ptask.hpp"
#include "simulator/run.hpp"

#include <algorithm>
#include <deque>
#include <fmt/format.h>
#include <memory>
#include <set>
#include <simgrid/s4u.hpp>
#include <stdexcept>

namespace sg4 = simgrid::s4u;

namespace pipesim {

std::vector<std::string> start_program_engine(const Platform& platform, const SimulationSettings& settings)
{
  std::vector<std::string> args = simgrid_arguments(settings);
  bool user_model               = std::ranges::any_of(settings.simgrid_args,
                                                      [](const std::string& a) { return a.starts_with("--cfg=host/model:"); });
  if (!user_model) args.insert(args.begin(), "--cfg=host/model:ptask_L07");
  start_engine(args);
  if (!platform.xml_file().empty()) {
    sg4::Engine::get_instance()->load_platform(platform.xml_file());
    apply_link_settings(platform);
  } else {
    build_simgrid_platform(platform, true);
  }
  return args;
}

void check_program_chain(const TaskChain& chain, const SimulationSettings& settings, const std::string& what)
{
  if (settings.failures.enabled() || !settings.crashes.empty())
    throw InputError::keyed("simulation.failures", fmt::format("{} are simulated without failures", what));
  if (!chain.has_programs())
    throw InputError::keyed("task_chain.tasks", fmt::format("{} need a program on every task", what));
  chain.validate();
}

namespace {

/// Sender instance a of module j meets receiver instance b of module j + 1 for each data set they share, in
/// increasing order on both sides: the sender offers it (`ready`), the receiver runs the transfer and releases the
/// sender (`done`) with its duration.
struct ProgramMeeting {
  sg4::SemaphorePtr ready = sg4::Semaphore::create(0);
  sg4::SemaphorePtr done  = sg4::Semaphore::create(0);
  std::deque<int> offered;
  double duration = 0;
};

/// What the instance actors share.
struct ProgramRun {
  explicit ProgramRun(const TaskChain& task_chain) : chain(task_chain) {}
  const TaskChain& chain;
  std::vector<Sv95Module> modules;
  std::vector<std::vector<std::vector<sg4::Host*>>> hosts; // [module][instance]
  // [j][a][b]: instance a of module j to instance b of module j + 1
  std::vector<std::vector<std::vector<std::unique_ptr<ProgramMeeting>>>> meetings;
  int datasets = 0;
  std::vector<double> arrival;                 // at P_out, -1 until then
  std::vector<std::vector<InstanceBusy>> busy; // [module][instance]
  std::unique_ptr<Progress> progress;
  int arrived = 0;
};

const TaskProgram& program_of(const ProgramRun& run, int task) { return run.chain.program(task); }

void program_wait(double seconds, double& account)
{
  if (seconds > 0) sg4::this_actor::sleep_for(seconds);
  account += seconds;
}

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
      program_wait(run.chain.input(m.p), busy.receive);
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
    program_wait(run.chain.output(m.p), busy.send);
    run.arrival[static_cast<std::size_t>(k)] = sg4::Engine::get_clock();
    if (run.progress) run.progress->set(++run.arrived);
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

} // namespace

SimulationResult simulate_program_here(const TaskChain& chain, const Platform& platform, const Mapping& mapping,
                                       const SimulationSettings& settings)
{
  check_program_chain(chain, settings, "programs (task_chain tasks with `program`)");
  ProgramRun run{chain};
  run.modules  = sv95_modules(mapping);
  run.datasets = settings.datasets;
  check_modules(chain, run.modules);
  run.arrival.assign(static_cast<std::size_t>(run.datasets), -1);
  for (const Sv95Module& m : run.modules)
    run.busy.emplace_back(static_cast<std::size_t>(m.r));
  std::vector<std::string> args = start_program_engine(platform, settings);
  deploy_program_hosts(run, platform, mapping);
  if (settings.progress != ProgressMode::off)
    run.progress = std::make_unique<Progress>("simulation", "data sets", run.datasets, settings.progress);
  for (std::size_t j = 0; j < run.modules.size(); ++j)
    for (int b = 0; b < run.modules[j].r; ++b)
      sg4::Actor::create(fmt::format("module{}.{}", j + 1, b + 1), run.hosts[j][static_cast<std::size_t>(b)].front(),
                         [&run, j, b] { program_instance(run, j, b); });
  sg4::Engine::get_instance()->run();
  if (run.progress) run.progress->finish();
  SimulationResult result = module_run_result(run.arrival, run.busy, platform, mapping, settings);
  result.config           = args;
  return result;
}

SimulationResult simulate_program(const TaskChain& chain, const Platform& platform, const Mapping& mapping,
                                  const SimulationSettings& settings)
{
  return simulate_in_child([&] { return simulate_program_here(chain, platform, mapping, settings); });
}

double simulate_program_latency(const TaskChain& chain, const Platform& platform, const Mapping& mapping,
                                const SimulationSettings& settings)
{
  return latency_of(simulate_program(chain, platform, mapping, latency_settings(settings)));
}

} // namespace pipesim
