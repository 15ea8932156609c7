// Single steps of a program chain measured alone on an idle platform (program_actors.hpp, measure_program_steps):
// what `pipesim fit` fits sv95 §5's response functions to.
#include "base/input_error.hpp"
#include "base/resource_limits.hpp"
#include "base/subprocess.hpp"
#include "model/sv95/program.hpp"
#include "simulator/engine.hpp"
#include "simulator/program_actors.hpp"
#include "simulator/ptask.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <nlohmann/json.hpp>
#include <simgrid/s4u.hpp>

namespace sg4 = simgrid::s4u;

namespace pipesim {

namespace {
void check_sample(const TaskChain& chain, const Platform& platform, const ProgramSample& s, std::size_t index)
{
  auto fail = [&](const std::string& what) {
    throw InputError::keyed(fmt::format("task_chain.tasks[{}].program", std::max(s.task - 1, 0)),
                            fmt::format("program sample {} ({} of task {} on p = {}, pr = {}): {}", index, s.step,
                                        s.task, s.p, s.pr, what));
  };
  if (s.task < 1 || s.task > chain.k()) fail(fmt::format("expected a task between 1 and k = {}", chain.k()));
  if (s.step != ProgramStep::exec && s.task == chain.k()) fail("the last task has no redistribution after it");
  int hosts = s.p + (s.step == ProgramStep::ecom ? s.pr : 0);
  if (s.p < 1 || (s.step == ProgramStep::ecom && s.pr < 1)) fail("expected at least one processor on each side");
  if (hosts > platform.p()) fail(fmt::format("needs {} hosts, the platform has {}", hosts, platform.p()));
  // SimGrid's clock must date the step: its flops at the slowest of its hosts' speeds, every byte over their slowest
  // link one after the other (a bound)
  double slowest = unbounded, per_byte = 0, latency = 0;
  for (int u = 0; u < hosts; ++u) {
    slowest = std::min(slowest, platform.speed(u));
    for (int v = 0; v < hosts; ++v)
      if (u != v && platform.reachable(u, v)) {
        per_byte = std::max(per_byte, 1 / platform.bandwidth(u, v));
        latency  = std::max(latency, platform.latency(u, v));
      }
  }
  const TaskProgram& program = chain.program(s.task);
  std::vector<double> bytes  = s.step == ProgramStep::icom   ? internal_redistribution_bytes(program, s.p)
                               : s.step == ProgramStep::ecom ? redistribution_bytes(program, s.p, s.pr)
                                                             : std::vector<double>{};
  double time                = s.step == ProgramStep::exec ? program.flops_per_host(s.p) / slowest : latency;
  for (double b : bytes)
    time += b * per_byte;
  if (!(time < 1e307))
    fail(fmt::format("may take {:g} s, past the 1e307 s SimGrid's clock (a double) can date; give the programs in "
                     "larger units (e.g. Gflop and GB, with the platform's speeds and bandwidths to match)",
                     time));
}

/// Hosts first..first+count-1 of the platform.
std::vector<sg4::Host*> sample_hosts(const Platform& platform, int first, int count)
{
  std::vector<sg4::Host*> hosts;
  for (int u = first; u < first + count; ++u)
    hosts.push_back(sg4::Host::by_name(platform.node_name(u)));
  return hosts;
}

double measure_one(const TaskChain& chain, const Platform& platform, const ProgramSample& s)
{
  const TaskProgram& program      = chain.program(s.task);
  std::vector<sg4::Host*> senders = sample_hosts(platform, 0, s.p);
  switch (s.step) {
  case ProgramStep::exec:
    return run_program_task(senders, program);
  case ProgramStep::icom:
    return run_internal_redistribution(senders, program);
  case ProgramStep::ecom:
    return run_transfer(senders, sample_hosts(platform, s.p, s.pr), program);
  }
  return 0;
}
} // namespace

std::vector<double> measure_program_steps(const TaskChain& chain, const Platform& platform,
                                          const std::vector<ProgramSample>& samples, const SimulationSettings& settings)
{
  check_program_chain(chain, settings, "program steps");
  for (std::size_t i = 0; i < samples.size(); ++i)
    check_sample(chain, platform, samples[i], i);
  if (samples.empty()) return {};
  std::string text = run_limited(
      [&] {
        detail::start_run_engine(SimulationJob(chain, platform, Mapping{}, settings)); // the programs' engine
        std::vector<double> durations;
        Progress progress("samples", "steps", static_cast<long>(samples.size()), settings.progress); // `pipesim fit`
        sg4::Actor::create("measure", sample_hosts(platform, 0, 1).front(), [&] {
          for (const ProgramSample& s : samples) {
            durations.push_back(measure_one(chain, platform, s));
            progress.set(static_cast<long>(durations.size()));
          }
        });
        sg4::Engine::get_instance()->run();
        progress.finish();
        return nlohmann::json(durations).dump();
      },
      fmt::format("the measurement of {} program steps", samples.size()));
  return nlohmann::json::parse(text).get<std::vector<double>>();
}

} // namespace pipesim
