// One-port actors: a processor does one thing at a time; a transfer is a rendezvous that occupies both ends.
#include "simulator/oneport_actors.hpp"

#include "platforms/input_error.hpp"

#include <cmath>
#include <fmt/format.h>
#include <simgrid/s4u.hpp>
#include <stdexcept>

namespace sg4 = simgrid::s4u;

namespace pipesim {

struct OnePortDeployment::State {
  Pipeline pipeline;
  Platform platform;
  Mapping mapping;
  SimulationSettings settings;
  double size_scale = 1;
  OnePortPlan plan;
  std::vector<int> ids; // payloads: &ids[k] carries data set k
  std::vector<sg4::Mailbox*> mailboxes;
  std::vector<double> output_times;
  std::vector<ProcessorUsage> usage; // per program
  std::vector<TraceEvent> trace;

  sg4::Host* host(int node) const
  {
    const std::string& name = platform.node_name(node);
    sg4::Host* h            = sg4::Host::by_name_or_null(name);
    if (h == nullptr) throw InputError(fmt::format("simulation: host '{}' is not in the SimGrid platform", name));
    return h;
  }
  std::uint64_t size(int transfer) const
  {
    double bytes = plan.transfers[static_cast<std::size_t>(transfer)].bytes * size_scale;
    return static_cast<std::uint64_t>(std::llround(bytes));
  }
  void record(std::size_t program, const char* kind, int k, int interval, double start, double end)
  {
    ProcessorUsage& u = usage[program];
    double busy       = end - start;
    if (kind[0] == 'c')
      u.compute += busy;
    else if (kind[0] == 's')
      u.send += busy;
    else
      u.receive += busy;
    if (settings.record_trace) trace.push_back(TraceEvent{u.host, kind, k, interval, start, end});
  }
  void run_processor(std::size_t index);
  void run_input();
  void run_output();
};

void OnePortDeployment::State::run_processor(std::size_t index)
{
  const auto& program = plan.programs[index];
  using Kind          = OnePortPlan::Step::Kind;
  for (int k = 0; k < settings.datasets; ++k)
    for (const auto& step : program.steps) {
      if (step.kind == Kind::compute) {
        double start = sg4::Engine::get_clock();
        sg4::this_actor::execute(step.flops);
        record(index, "compute", k, step.interval, start, sg4::Engine::get_clock());
        continue;
      }
      sg4::Mailbox* mb = mailboxes[static_cast<std::size_t>(step.transfer)];
      sg4::CommPtr comm;
      int* data = nullptr;
      if (step.kind == Kind::receive)
        comm = mb->get_async<int>(&data);
      else
        comm = mb->put_async(&ids[static_cast<std::size_t>(k)], size(step.transfer));
      comm->wait();
      // The transfer occupies both ends from the rendezvous on; waiting for the peer is idle time.
      double start = comm->get_start_time();
      if (step.kind == Kind::receive && (data == nullptr || *data != k))
        throw std::logic_error(
            fmt::format("one-port actor on {}: expected data set {}, got {}", usage[index].host, k, data ? *data : -1));
      record(index, step.kind == Kind::receive ? "receive" : "send", k, step.interval, start, sg4::Engine::get_clock());
    }
}

void OnePortDeployment::State::run_input()
{
  // P_in offers data set k to every replica of I_1 at once, and k+1 once all of them have taken k: not bound by
  // one-port, and the first interval's replicas stay in step (DESIGN.md §3.3).
  for (int k = 0; k < settings.datasets; ++k) {
    std::vector<sg4::CommPtr> comms;
    for (int t : plan.from_in)
      comms.push_back(mailboxes[static_cast<std::size_t>(t)]->put_async(&ids[static_cast<std::size_t>(k)], size(t)));
    sg4::Comm::wait_all(comms);
  }
}

void OnePortDeployment::State::run_output()
{
  sg4::Mailbox* mb = mailboxes[static_cast<std::size_t>(plan.to_out)];
  for (int k = 0; k < settings.datasets; ++k) {
    const int* data = mb->get<int>();
    if (*data != k) throw std::logic_error(fmt::format("P_out: expected data set {}, got {}", k, *data));
    output_times.push_back(sg4::Engine::get_clock());
  }
}

OnePortDeployment::OnePortDeployment(const Pipeline& pipeline, const Platform& platform, const Mapping& mapping,
                                     const SimulationSettings& settings, double size_scale)
    : state_(std::make_unique<State>())
{
  State& s     = *state_;
  s.pipeline   = pipeline;
  s.platform   = platform;
  s.mapping    = mapping;
  s.settings   = settings;
  s.size_scale = size_scale;
  s.plan       = plan_oneport(pipeline, mapping, platform.in(), platform.out());
  for (int k = 0; k < settings.datasets; ++k)
    s.ids.push_back(k);
  for (const auto& program : s.plan.programs)
    s.usage.push_back(ProcessorUsage{platform.node_name(program.processor), 0, 0, 0});
}

OnePortDeployment::~OnePortDeployment() = default;

void OnePortDeployment::deploy()
{
  State& s = *state_;
  for (std::size_t t = 0; t < s.plan.transfers.size(); ++t)
    s.mailboxes.push_back(sg4::Mailbox::by_name(fmt::format("pipesim-transfer-{}", t)));
  State* st = state_.get();
  for (std::size_t i = 0; i < s.plan.programs.size(); ++i) {
    int u = s.plan.programs[i].processor;
    sg4::Actor::create(s.platform.node_name(u), s.host(u), [st, i] { st->run_processor(i); });
  }
  sg4::Actor::create("P_in", s.host(s.platform.in()), [st] { st->run_input(); });
  sg4::Actor::create("P_out", s.host(s.platform.out()), [st] { st->run_output(); });
}

SimulationResult OnePortDeployment::result() const
{
  const State& s = *state_;
  SimulationResult r;
  r.output_times = s.output_times;
  if (static_cast<int>(s.output_times.size()) != s.settings.datasets)
    throw std::runtime_error(
        fmt::format("simulation ended with {} of {} data sets delivered", s.output_times.size(), s.settings.datasets));
  r.period   = measured_period(s.output_times, s.settings.effective_warmup(), s.settings.effective_cooldown());
  r.makespan = s.output_times.empty() ? 0 : s.output_times.back();
  r.usage    = s.usage;
  for (auto& u : r.usage)
    if (r.makespan > 0) {
      u.compute /= r.makespan;
      u.send /= r.makespan;
      u.receive /= r.makespan;
    }
  r.trace   = s.trace;
  r.network = to_string(s.settings.network);
  return r;
}

} // namespace pipesim
