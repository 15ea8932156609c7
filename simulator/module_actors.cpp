// Data-parallel module instances charged with their response functions (DESIGN.md §3.8; module_actors.hpp).
#include "simulator/module_actors.hpp"

#include "base/input_error.hpp"
#include "model/deal.hpp"
#include "model/sv95/response.hpp"
#include "simulator/module_instances.hpp"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <memory>
#include <simgrid/s4u.hpp>
#include <stdexcept>

namespace sg4 = simgrid::s4u;

namespace pipesim {

namespace detail { // named: ModuleDeployment holds one (GCC's -Wsubobject-linkage)

/// What the actors share (module_instances.hpp) and the payloads of the messages.
struct ModuleRun : ModuleRunState {
  using ModuleRunState::ModuleRunState;
  std::vector<int> ids; // ids[k] = k: the payload of data set k's messages
};

/// The mailbox of the transfers from instance a of module j to instance b of module j + 1: each carries its data
/// sets in increasing order, as both ends handle theirs.
sg4::Mailbox* pair_mailbox(int j, int a, int b) { return sg4::Mailbox::by_name(fmt::format("m{}:{}>{}", j, a, b)); }

/// The step times of module j's instances (sv95 §2.1, in the order module_response adds them).
struct StepTimes {
  double receive = 0;
  double exec    = 0;
  double send    = 0;
};

StepTimes step_times(const ModuleRun& run, std::size_t j)
{
  const Sv95Module& m = run.modules[j];
  int p_prev          = j > 0 ? run.modules[j - 1].p : 0;
  int p_next          = j + 1 < run.modules.size() ? run.modules[j + 1].p : 0;
  return {module_input(run.chain, m.first, p_prev, m.p), module_exec(run.chain, m.first, m.last, m.p),
          module_output(run.chain, m.last, m.p, p_next)};
}

/// Instance b of module j: data sets b, b + r, b + 2r, ... in order.
void instance_actor(ModuleRun& run, std::size_t j, int b)
{
  const Sv95Module& m = run.modules[j];
  const StepTimes t   = step_times(run, j);
  const bool first = j == 0, last = j + 1 == run.modules.size();
  std::vector<sg4::Mailbox*> from, to; // indexed by the other side's instance
  for (int a = 0; !first && a < run.modules[j - 1].r; ++a)
    from.push_back(pair_mailbox(static_cast<int>(j) - 1, a, b));
  for (int c = 0; !last && c < run.modules[j + 1].r; ++c)
    to.push_back(pair_mailbox(static_cast<int>(j), b, c));
  InstanceBusy& busy = run.busy[j][static_cast<std::size_t>(b)];
  for (int k = b; k < run.datasets; k += m.r) {
    if (!first) {
      int got = *from[static_cast<std::size_t>(k % run.modules[j - 1].r)]->get<int>();
      if (got != k) throw std::logic_error(fmt::format("module {} instance {}: got data set {} for {}", j, b, got, k));
    }
    busy_for(t.receive, busy.receive);
    busy_for(t.exec, busy.compute);
    if (!last) to[static_cast<std::size_t>(k % run.modules[j + 1].r)]->put(&run.ids[static_cast<std::size_t>(k)], 0);
    busy_for(t.send, busy.send);
    if (last) run.arrive(k);
  }
}

} // namespace detail

SimulationResult module_run_result(const std::vector<double>& arrival,
                                   const std::vector<std::vector<InstanceBusy>>& busy, const Platform& platform,
                                   const Mapping& mapping, const SimulationSettings& settings)
{
  SimulationResult result;
  result.seed    = settings.seed;
  result.network = settings.network;
  double latest  = 0;
  for (double t : arrival) {
    if (t < 0) break; // a data set that never arrived: the run did not end by the protocol
    latest = std::max(latest, t);
    result.output_times.push_back(latest);
  }
  result.failures.verdict   = result.output_times.size() == arrival.size() ? Verdict::survived : Verdict::error;
  result.failures.delivered = static_cast<int>(result.output_times.size());
  result.makespan           = latest;
  result.period = measured_period(result.output_times, settings.effective_warmup(), std::max(settings.cooldown, 0),
                                  deal_round(mapping));
  auto fraction = [&](double t) { return latest > 0 ? t / latest : 0.0; };
  for (std::size_t j = 0; j < busy.size(); ++j)
    for (std::size_t b = 0; b < busy[j].size(); ++b)
      for (int u : mapping.interval(static_cast<int>(j)).replicas[b])
        result.usage.push_back({platform.node_name(u), fraction(busy[j][b].compute), fraction(busy[j][b].send),
                                fraction(busy[j][b].receive)});
  return result;
}

void check_module_job(const SimulationJob& job)
{
  const SimulationSettings& settings = job.settings;
  if (settings.failures.enabled() || !settings.crashes.empty())
    throw InputError::keyed("simulation.failures", "data-parallel modules (task_chain) are simulated without failures");
  detail::ModuleRun run{*job.task_chain, job.mapping};
  check_modules(run.chain, run.modules);
  double one_dataset = 0; // every module's steps one after the other: a bound of one data set's time
  for (std::size_t j = 0; j < run.modules.size(); ++j) { // a table does not cover every p: +inf would never end
    detail::StepTimes t = detail::step_times(run, j);
    if (!std::isfinite(t.receive) || !std::isfinite(t.exec) || !std::isfinite(t.send))
      throw InputError::keyed(interval_key(static_cast<int>(j), "replicas"), run.modules[j].p,
                              fmt::format("simulation: module {} ({}) has an infinite time on this many processors "
                                          "per instance (a table of the task chain does not cover it)",
                                          j + 1, to_text({run.modules[j]}, run.chain)));
    one_dataset += t.receive + t.exec + t.send;
  }
  refuse_clock_overflow(settings.datasets, one_dataset, "through these modules",
                        "give the task chain's times in a larger unit (e.g. hours instead of seconds)");
}

namespace detail {
/// The modules' execution of a run (module_actors.hpp).
class ModuleDeployment final : public ModuleInstancesDeployment<ModuleRun> {
public:
  ModuleDeployment(const SimulationJob& job, const SimulationSettings& run) : ModuleInstancesDeployment(job, run)
  {
    run_.ids.resize(static_cast<std::size_t>(run_.datasets));
    for (int k = 0; k < run_.datasets; ++k)
      run_.ids[static_cast<std::size_t>(k)] = k;
  }

  void deploy() override
  {
    sg4::Host* host = sg4::Host::by_name("instances"); // the one host of EngineNeeds::Platform::single_host
    deploy_instances([host](std::size_t, int) { return host; }, instance_actor);
  }
};
} // namespace detail

std::unique_ptr<Deployment> make_module_deployment(const SimulationJob& job, const SimulationSettings& run, RunInputs)
{
  return std::make_unique<detail::ModuleDeployment>(job, run);
}

} // namespace pipesim
