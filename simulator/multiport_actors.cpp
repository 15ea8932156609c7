// Multi-port actors: receive, compute and send overlap through bounded buffers; cards and links are shared.
#include "simulator/multiport_actors.hpp"

#include "base/input_error.hpp"
#include "model/allotment.hpp"
#include "model/oneport_plan.hpp"
#include "simulator/replication.hpp"

#include <cmath>
#include <deque>
#include <fmt/format.h>
#include <map>
#include <simgrid/s4u.hpp>
#include <stdexcept>

namespace sg4 = simgrid::s4u;

namespace pipesim {

namespace detail { // named, not anonymous: MultiPortDeployment::State holds Stations
/// A bounded FIFO of data set indices between two actors of one processor.
struct Buffer {
  std::deque<int> items;
  sg4::SemaphorePtr free;
  sg4::SemaphorePtr filled;
  explicit Buffer(int capacity)
      : free(sg4::Semaphore::create(static_cast<unsigned>(capacity))), filled(sg4::Semaphore::create(0))
  {
  }
  void push(int k)
  {
    free->acquire();
    items.push_back(k);
    filled->release();
  }
  int pop()
  {
    filled->acquire();
    int k = items.front();
    items.pop_front();
    free->release();
    return k;
  }
};

/// Interval j on processor u: its receiver, computer and sender share these.
struct Station {
  int interval  = 0;
  int processor = 0;
  bool local    = false;         // the input is computed by u itself (u computed the same data sets of I_{j-1})
  std::unique_ptr<Buffer> input; // received (or locally produced) data sets
  Buffer* next_local = nullptr;  // input buffer of (j+1, u) when u holds I_{j+1}
  int computed       = 0;        // data sets computed
  std::size_t usage  = 0;        // index in State::usage
  bool sender        = false;    // its sender actor was started (at the deployment or at its first election)
};
/// A processor holding I_{j-1} and I_j computes the input of all its data sets of I_j itself, or of none: with deal
/// it could compute some and receive the others, which the stations' single input buffer cannot order (InputError).
void require_uniform_local_inputs(const detail::Replication& rep, const Platform& platform)
{
  for (int j = 1; j < rep.m(); ++j)
    for (const auto& group : rep.mapping().interval(j).replicas) {
      int u = group.front();
      if (rep.replica(j - 1, u) < 0) continue;
      for (int k = 0; k < rep.window(); ++k)
        if (rep.processes(j, u, k) != rep.input_local(j, u, k))
          throw InputError::keyed(interval_key(j, "replicas"), platform.node_name(u),
                                  fmt::format("multi-port simulation: this processor holds mapping[{}] too but "
                                              "computes different data sets of them (deal replication); give both "
                                              "intervals the same replicas in the same order, or use the one-port "
                                              "model",
                                              j - 1));
    }
}
} // namespace detail

using detail::Buffer;
using detail::Station;

struct MultiPortDeployment::State {
  Pipeline pipeline;
  Platform platform;
  Mapping mapping;
  SimulationSettings settings;
  double size_scale = 1;
  std::unique_ptr<detail::Replication> replication;
  std::vector<std::unique_ptr<Station>> stations;
  std::vector<ProcessorUsage> usage;
  std::vector<TraceEvent> trace;

  void record(const Station& s, Operation kind, int k, double start, double end)
  {
    ProcessorUsage& u = usage[s.usage];
    u.busy(kind) += end - start;
    if (settings.record_trace) trace.push_back(TraceEvent{u.host, kind, k, s.interval, start, end});
  }
  void receive(Station& s);
  void compute(Station& s);
  void send(Station& s);
  void start_sender(Station& s);
  /// The prefix of a station's actor names: "P3:I2".
  std::string actor_prefix(const Station& s) const
  {
    return fmt::format("{}:I{}", platform.node_name(s.processor), s.interval + 1);
  }
};

void MultiPortDeployment::State::receive(Station& s)
{
  detail::Replication& rep = *replication;
  auto* waiter             = settings.allocation == Allocation::allotted ? rep.waiter(rep.host(s.processor)) : nullptr;
  for (int k = rep.first(s.interval, s.processor); k < settings.datasets; k += rep.stride(s.interval)) {
    s.input->free->acquire(); // a slot for the data set being received
    rep.receive(waiter, s.interval, s.processor, k, nullptr,
                [&](double start, double end, int data) { record(s, Operation::receive, data, start, end); });
    s.input->items.push_back(k);
    s.input->filled->release();
  }
}

void MultiPortDeployment::State::compute(Station& s)
{
  detail::Replication& rep = *replication;
  const Interval& in       = mapping.interval(s.interval);
  double flops             = rep.flops(s.processor, pipeline.work(in.first, in.last)); // takes W / s_u of the model
  const int j              = s.interval;
  const int u              = s.processor;
  auto sleep               = sg4::Semaphore::create(0);
  for (int k = rep.first(j, u); k < settings.datasets; k += rep.stride(j)) {
    s.input->pop();
    double start = sg4::Engine::get_clock();
    sg4::this_actor::execute(flops); // intervals on one processor share its CPU
    record(s, Operation::compute, k, start, sg4::Engine::get_clock());
    // the sending replica's output buffer (the elected one's, or each dealt replica's) holds `buffer` data sets its
    // sender has not taken yet; the others keep their outputs (indices) until delivered, without waiting
    while (rep.sends(j, u) && rep.unstarted(j, u, k) >= settings.buffer)
      rep.wait_change(j, u, sleep);
    s.computed = k + 1;
    if (rep.sends(j, u)) rep.notify(j, u); // only u's own sender waits on what u computed
    if (s.next_local) s.next_local->push(k);
  }
}

void MultiPortDeployment::State::send(Station& s)
{
  detail::Replication& rep = *replication;
  auto* waiter             = rep.waiter(rep.host(s.processor));
  const int j              = s.interval;
  const int u              = s.processor;
  auto sleep               = sg4::Semaphore::create(0);
  for (;;) {
    int d = rep.delivered(j, u);
    if (d >= settings.datasets) return;
    if (!rep.sends(j, u)) { // a replica not elected: only a crash can make it the sender
      rep.wait_election(j, sleep);
      continue;
    }
    if (!rep.may_send(j, u) || s.computed <= d) {
      rep.wait_change(j, u, sleep);
      continue;
    }
    rep.begin_send(j, u);
    rep.started_one(j, u, d);
    double start = sg4::Engine::get_clock();
    // every successor at once; a crash that elects another replica stops it (docs/semantics.md, "Crashes")
    bool done = rep.send(
        waiter, j, rep.receivers(j, d), d, [&] { return !rep.sends(j, u); }, [](double, double, int) {});
    record(s, Operation::send, d, start, sg4::Engine::get_clock());
    if (done) rep.delivered_one(j, u, d);
    rep.end_send(j, u);
  }
}

/// A station's sender: of every replica of a dealt interval, and of an active one's elected replica. The others
/// would only wait for an election (`Replication::wait_election`): theirs starts when a crash first elects them.
void MultiPortDeployment::State::start_sender(Station& s)
{
  if (s.sender) return;
  auto* h = replication->host(s.processor);
  if (!replication->alive(s.processor) || !h->is_on()) return;
  s.sender = true;
  sg4::Actor::create(actor_prefix(s) + ":send", h, [this, p = &s] { send(*p); });
}

MultiPortDeployment::MultiPortDeployment(const Pipeline& pipeline, const Platform& platform, const Mapping& mapping,
                                         const SimulationSettings& settings, double size_scale)
    : state_(std::make_unique<State>())
{
  State& s     = *state_;
  s.pipeline   = pipeline;
  s.platform   = platform;
  s.mapping    = mapping;
  s.settings   = settings;
  s.size_scale = size_scale;
  if (settings.buffer < 1)
    throw InputError::keyed("simulation.buffer", settings.buffer, "expected at least one data set");
  plan_oneport(pipeline, mapping, platform.in(), platform.out()); // refuses what the model does not support
  s.replication = std::make_unique<detail::Replication>(s.pipeline, s.platform, s.mapping, s.settings, size_scale,
                                                        settings.allocation == Allocation::allotted);
  detail::require_uniform_local_inputs(*s.replication, s.platform);
}

MultiPortDeployment::~MultiPortDeployment() = default;

void MultiPortDeployment::deploy()
{
  State& s = *state_;
  s.replication->deploy();
  if (s.replication->finished()) return;          // failed at time 0: nothing runs
  std::map<std::pair<int, int>, Station*> by_key; // (interval, processor)
  std::map<int, std::size_t> usage_of;
  for (int j = 0; j < s.mapping.m(); ++j)
    for (const auto& group : s.mapping.interval(j).replicas) {
      auto st             = std::make_unique<Station>();
      st->interval        = j;
      st->processor       = group.front();
      st->local           = s.replication->input_local(j, st->processor, s.replication->first(j, st->processor));
      st->input           = std::make_unique<Buffer>(s.settings.buffer);
      auto [it, inserted] = usage_of.emplace(st->processor, s.usage.size());
      if (inserted) s.usage.push_back(ProcessorUsage{s.platform.node_name(st->processor), 0, 0, 0});
      st->usage                  = it->second;
      by_key[{j, st->processor}] = st.get();
      s.stations.push_back(std::move(st));
    }
  for (auto& st : s.stations)
    if (auto next = by_key.find({st->interval + 1, st->processor}); next != by_key.end() && next->second->local)
      st->next_local = next->second->input.get();
  State* self = state_.get();
  for (auto& st : s.stations) {
    Station* p = st.get();
    if (!s.replication->alive(p->processor)) continue;
    auto* h     = s.replication->host(p->processor);
    auto prefix = s.actor_prefix(*p);
    if (!p->local) sg4::Actor::create(prefix + ":receive", h, [self, p] { self->receive(*p); });
    sg4::Actor::create(prefix + ":compute", h, [self, p] { self->compute(*p); });
    if (s.replication->sends(p->interval, p->processor)) s.start_sender(*p);
  }
  s.replication->on_elected([self, by_key](int j, int u) {
    if (auto it = by_key.find({j, u}); it != by_key.end()) self->start_sender(*it->second);
  });
}

SimulationResult MultiPortDeployment::result() const
{
  const State& s = *state_;
  return detail::make_result(*s.replication, s.settings, s.usage, s.trace);
}

} // namespace pipesim
