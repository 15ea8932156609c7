// Multi-port actors: receive, compute and send overlap through bounded buffers; cards and links are shared.
#include "simulator/multiport_actors.hpp"

#include "base/input_error.hpp"
#include "model/allotment.hpp"
#include "model/oneport_plan.hpp"
#include "simulator/replicated_deployment.hpp"

#include <cmath>
#include <deque>
#include <fmt/format.h>
#include <map>
#include <simgrid/s4u.hpp>
#include <stdexcept>

namespace sg4 = simgrid::s4u;

namespace pipesim {

namespace detail { // named, not anonymous: a unity build merges the anonymous namespaces of a target's files
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
  std::size_t usage  = 0;        // index in usage_
  bool sender        = false;    // its sender actor was started (at the deployment or at its first election)
};
/// A processor holding I_{j-1} and I_j computes the input of all its data sets of I_j itself, or of none: with deal
/// it could compute some and receive the others, which the stations' single input buffer cannot order (InputError).
void require_uniform_local_inputs(const detail::Replication& rep, const Platform& platform)
{
  for (int j = 1; j < rep.layout().m(); ++j)
    for (const auto& group : rep.layout().mapping().interval(j).replicas) {
      int u = group.front();
      if (rep.layout().replica(j - 1, u) < 0) continue;
      for (int k = 0; k < rep.layout().window(); ++k)
        if (rep.layout().processes(j, u, k) != rep.layout().input_local(j, u, k))
          throw InputError::keyed(interval_key(j, "replicas"), platform.node_name(u),
                                  fmt::format("multi-port simulation: this processor holds mapping[{}] too but "
                                              "computes different data sets of them (deal replication); give both "
                                              "intervals the same replicas in the same order, or use the one-port "
                                              "model",
                                              j - 1));
    }
}

/// The multi-port execution of a run (multiport_actors.hpp).
class MultiPortDeployment final : public ReplicatedDeployment {
public:
  MultiPortDeployment(const SimulationJob& job, const SimulationSettings& run, RunInputs inputs);
  void deploy() override;

private:
  void record(const Station& s, Operation kind, int k, double start, double end)
  {
    ReplicatedDeployment::record(s.usage, kind, k, s.interval, start, end);
  }
  void receive(Station& s);
  void compute(Station& s);
  void send(Station& s);
  void start_sender(Station& s);
  /// A segment of a handover (simulator/segment_gate.hpp): tells how far station s has done its data sets (computed
  /// and, when it sends, delivered).
  void progress(const Station& s);
  /// A segment of a handover: waits until station s may start.
  void wait_start(const Station& s)
  {
    if (SegmentGate* gate = replication_->gate(); gate != nullptr && gate->wait_start)
      gate->wait_start(s.interval, s.processor);
  }
  /// The prefix of a station's actor names: "P3:I2".
  std::string actor_prefix(const Station& s) const
  {
    return fmt::format("{}:I{}", platform_.node_name(s.processor), s.interval + 1);
  }

  std::vector<std::unique_ptr<Station>> stations_;
};
} // namespace detail

using detail::Buffer;
using detail::MultiPortDeployment;
using detail::Station;

void MultiPortDeployment::receive(Station& s)
{
  detail::Replication& rep = *replication_;
  auto* waiter =
      settings_.allocation == Allocation::allotted ? rep.waits().waiter(rep.layout().host(s.processor)) : nullptr;
  wait_start(s);
  for (int k = rep.layout().first(s.interval, s.processor); k < rep.layout().datasets();
       k += rep.layout().stride(s.interval)) {
    s.input->free->acquire(); // a slot for the data set being received
    rep.transfers().receive(waiter, s.interval, s.processor, k, nullptr, [&](double start, double end, int data) {
      record(s, Operation::receive, data, start, end);
    });
    s.input->items.push_back(k);
    s.input->filled->release();
  }
}

void MultiPortDeployment::compute(Station& s)
{
  detail::Replication& rep = *replication_;
  const int j              = s.interval;
  const bool fixed         = rep.layout().fixed_amounts(); // flops computed once, or per data set from the workload
  const double flops       = rep.layout().flops(s.processor, rep.layout().work(j, rep.layout().first(j, s.processor)));
  const int u              = s.processor;
  auto sleep               = sg4::Semaphore::create(0);
  if (s.local) wait_start(s); // otherwise its receiver waits
  for (int k = rep.layout().first(j, u); k < rep.layout().datasets(); k += rep.layout().stride(j)) {
    s.input->pop();
    double start = sg4::Engine::get_clock();
    sg4::this_actor::execute(
        fixed ? flops : rep.layout().flops(u, rep.layout().work(j, k))); // W_j(k) / s_u; intervals share the CPU
    record(s, Operation::compute, k, start, sg4::Engine::get_clock());
    // the sending replica's output buffer (the elected one's, or each dealt replica's) holds `buffer` data sets its
    // sender has not taken yet; the others keep their outputs (indices) until delivered, without waiting
    while (rep.config().sends(j, u) && rep.config().unstarted(j, u, k) >= settings_.buffer)
      rep.config().wait_change(j, u, sleep);
    s.computed = k + 1;
    if (rep.config().sends(j, u)) rep.config().notify(j, u); // only u's own sender waits on what u computed
    progress(s);
    if (s.next_local) s.next_local->push(k);
  }
}

void MultiPortDeployment::progress(const Station& s)
{
  SegmentGate* gate = replication_->gate();
  if (gate == nullptr || !gate->reached) return;
  const detail::Replication& rep = *replication_;
  const int j                    = s.interval;
  const int u                    = s.processor;
  // the next data set the station computes; a sender's output is done up to the next one it delivers
  int next = s.computed == 0 ? rep.layout().first(j, u) : s.computed - 1 + rep.layout().stride(j);
  if (rep.config().sends(j, u)) next = std::min(next, rep.config().delivered(j, u));
  gate->reached(j, u, std::min(next, rep.layout().datasets()));
}

void MultiPortDeployment::send(Station& s)
{
  detail::Replication& rep = *replication_;
  auto* waiter             = rep.waits().waiter(rep.layout().host(s.processor));
  const int j              = s.interval;
  const int u              = s.processor;
  auto sleep               = sg4::Semaphore::create(0);
  for (;;) {
    int d = rep.config().delivered(j, u);
    if (d >= rep.layout().datasets()) return;
    if (!rep.config().sends(j, u)) { // a replica not elected: only a crash can make it the sender
      rep.config().wait_election(j, sleep);
      continue;
    }
    if (!rep.config().may_send(j, u) || s.computed <= d) {
      rep.config().wait_change(j, u, sleep);
      continue;
    }
    rep.config().begin_send(j, u);
    rep.config().started_one(j, u, d);
    double start = sg4::Engine::get_clock();
    // every successor at once; a crash that elects another replica stops it (docs/semantics.md, "Crashes")
    bool done = rep.transfers().send(
        waiter, j, rep.config().receivers(j, d), d, [&] { return !rep.config().sends(j, u); },
        [](double, double, int) {});
    record(s, Operation::send, d, start, sg4::Engine::get_clock());
    if (done) rep.config().delivered_one(j, u, d);
    rep.config().end_send(j, u);
    progress(s);
  }
}

/// A station's sender: of every replica of a dealt interval, and of an active one's elected replica. The others
/// would only wait for an election (`ReplicaConfiguration::wait_election`): theirs starts when a crash first elects
/// them.
void MultiPortDeployment::start_sender(Station& s)
{
  if (s.sender) return;
  auto* h = replication_->layout().host(s.processor);
  if (!replication_->config().alive(s.processor) || !h->is_on()) return;
  s.sender = true;
  replication_->spawn(actor_prefix(s) + ":send", h, [this, p = &s] { send(*p); });
}

MultiPortDeployment::MultiPortDeployment(const SimulationJob& job, const SimulationSettings& run, RunInputs inputs)
    : ReplicatedDeployment(job, run, std::move(inputs))
{
  if (settings_.buffer < 1)
    throw InputError::keyed("simulation.buffer", settings_.buffer, "expected at least one data set");
  plan_oneport(pipeline_, mapping_, platform_.in(), platform_.out()); // refuses what the model does not support
  start_replication(settings_.allocation == Allocation::allotted);
  detail::require_uniform_local_inputs(*replication_, platform_);
}

void MultiPortDeployment::deploy()
{
  replication_->deploy();
  if (replication_->finished()) return;           // failed at time 0: nothing runs
  std::map<std::pair<int, int>, Station*> by_key; // (interval, processor)
  std::map<int, std::size_t> usage_of;
  for (int j = 0; j < mapping_.m(); ++j)
    for (const auto& group : mapping_.interval(j).replicas) {
      auto st       = std::make_unique<Station>();
      st->interval  = j;
      st->processor = group.front();
      st->local = replication_->layout().input_local(j, st->processor, replication_->layout().first(j, st->processor));
      st->input = std::make_unique<Buffer>(settings_.buffer);
      auto [it, inserted] = usage_of.emplace(st->processor, usage_.size());
      if (inserted) usage_.push_back(ProcessorUsage{platform_.node_name(st->processor), 0, 0, 0});
      st->usage                  = it->second;
      by_key[{j, st->processor}] = st.get();
      stations_.push_back(std::move(st));
    }
  for (auto& st : stations_)
    if (auto next = by_key.find({st->interval + 1, st->processor}); next != by_key.end() && next->second->local)
      st->next_local = next->second->input.get();
  for (auto& st : stations_) {
    Station* p = st.get();
    auto* h    = replication_->layout().host(p->processor);
    if (!replication_->config().alive(p->processor) || !h->is_on()) continue; // off: a silent crash
    auto prefix = actor_prefix(*p);
    if (!p->local) replication_->spawn(prefix + ":receive", h, [this, p] { receive(*p); });
    replication_->spawn(prefix + ":compute", h, [this, p] { compute(*p); });
    if (replication_->config().sends(p->interval, p->processor)) start_sender(*p);
  }
  replication_->config().on_elected([this, by_key](int j, int u) {
    if (auto it = by_key.find({j, u}); it != by_key.end()) start_sender(*it->second);
  });
}

std::unique_ptr<Deployment> make_multi_port_deployment(const SimulationJob& job, const SimulationSettings& run,
                                                       RunInputs inputs)
{
  return std::make_unique<MultiPortDeployment>(job, run, std::move(inputs));
}

} // namespace pipesim
