// One-port actors: a processor does one thing at a time; a transfer is a rendezvous that occupies both ends.
#include "simulator/oneport_actors.hpp"

#include "base/input_error.hpp"
#include "model/oneport_plan.hpp"
#include "simulator/replicated_deployment.hpp"

#include <functional>

#include <cmath>
#include <fmt/format.h>
#include <simgrid/s4u.hpp>
#include <stdexcept>

namespace sg4 = simgrid::s4u;

namespace pipesim {

namespace detail {
/// The one-port execution of a run (oneport_actors.hpp).
class OnePortDeployment final : public ReplicatedDeployment {
public:
  OnePortDeployment(const SimulationJob& job, const SimulationSettings& run, RunInputs inputs);
  void deploy() override;

private:
  void run_processor(std::size_t index, int u);
  void run_plain(std::size_t index, int u);
};
} // namespace detail

using detail::OnePortDeployment;

namespace {
/// One processor's program (DESIGN.md §3.1, §3.7): per data set and held interval in stage order that processes it,
/// receive (unless the input is local), compute, then send what it owes as sender, one transfer after the other.
struct Program {
  detail::Replication& rep;
  int u = 0;
  std::vector<int> held;     // intervals, in stage order
  std::vector<int> computed; // per held interval: data sets computed
  detail::CrashWaits::Waiter* waiter = nullptr;
  std::function<void(Operation, int, int, double, double)> record;

  /// The first data set (in data set, then stage order) this processor owes as sender (the elected replica of an
  /// active interval, a replica of a dealt one for its data sets): (k, index in held). An interval whose previous
  /// sender is still finishing its transfers is not owed yet (end_send wakes us).
  std::pair<int, int> owed() const
  {
    std::pair<int, int> best{-1, -1};
    for (std::size_t i = 0; i < held.size(); ++i) {
      int j = held[i];
      if (!rep.config().may_send(j, u)) continue;
      int d = rep.config().delivered(j, u);
      if (d < computed[i] && (best.first < 0 || d < best.first)) best = {d, static_cast<int>(i)};
    }
    return best;
  }
  void catch_up()
  {
    for (;;) {
      const std::pair<int, int> first_owed = owed(); // not a structured binding: clang 14 cannot capture one
      const int k                          = first_owed.first;
      const int i                          = first_owed.second;
      if (k < 0) return;
      const int j = held[static_cast<std::size_t>(i)];
      bool done   = true;
      // the callbacks capture one pointer, so that their std::function needs no allocation (one per transfer)
      struct Sending {
        Program* program;
        int k, i, j;
      } const sending{this, k, i, j};
      auto stop = [&sending] { // another replica elected, or an earlier data set owed
        const Program& p = *sending.program;
        if (!p.rep.config().sends(sending.j, p.u)) return true;
        auto [k2, i2] = p.owed();
        return k2 >= 0 && (k2 < sending.k || (k2 == sending.k && i2 < sending.i));
      };
      auto rec = [&sending](double start, double end, int) {
        sending.program->record(Operation::send, sending.k, sending.j, start, end);
      };
      rep.config().begin_send(j, u);
      for (int v : rep.config().receivers(j, k)) {
        if (!rep.config().sends(j, u) || !rep.transfers().send(waiter, j, std::span<const int>(&v, 1), k, stop, rec)) {
          done = false;
          break;
        }
      }
      if (done) rep.config().delivered_one(j, u, k);
      rep.config().end_send(j, u);
    }
  }
};
} // namespace

void OnePortDeployment::run_processor(std::size_t index, int u)
{
  detail::Replication& rep = *replication_;
  Program proc{rep, u, mapping_.intervals_of(u), {}, nullptr, {}};
  proc.computed.assign(proc.held.size(), 0);
  proc.waiter = rep.waits().waiter(rep.layout().host(u));
  proc.record = [this, index](Operation kind, int k, int j, double start, double end) {
    record(index, kind, k, j, start, end);
  };
  SegmentGate* gate = rep.gate(); // a segment of a handover: tells its progress, starts when let
  const bool signal = gate != nullptr && gate->reached;
  const bool gated  = gate != nullptr && gate->wait_start;
  for (int k = 0; k < rep.layout().datasets(); ++k) {
    if (signal) // one-port: every operation of u's on data sets < k is done (program order)
      for (int j : proc.held)
        gate->reached(j, u, k);
    for (std::size_t i = 0; i < proc.held.size(); ++i) {
      int j = proc.held[i];
      if (!rep.layout().processes(j, u, k)) continue; // a dealt interval: another replica's data set
      if (gated && k == rep.layout().first(j, u)) gate->wait_start(j, u);
      if (!rep.layout().input_local(j, u, k)) {
        struct Receiving {
          OnePortDeployment* deployment;
          std::size_t index;
          int j;
        } const receiving{this, index, j}; // one pointer captured: no allocation per transfer
        rep.transfers().receive(
            proc.waiter, j, u, k, [&proc] { proc.catch_up(); },
            [&receiving](double start, double end, int data) {
              receiving.deployment->record(receiving.index, Operation::receive, data, receiving.j, start, end);
            });
      }
      double start = sg4::Engine::get_clock();
      sg4::this_actor::execute(rep.layout().flops(u, rep.layout().work(j, k))); // takes W_j(k) / s_u of the model
      record(index, Operation::compute, k, j, start, sg4::Engine::get_clock());
      proc.computed[i] = k + 1;
      proc.catch_up();
    }
  }
  if (signal)
    for (int j : proc.held)
      gate->reached(j, u, rep.layout().datasets());
  if (proc.waiter == nullptr) return;
  // every data set is computed, but a crash may still make this processor the sender of an interval behind
  for (;;) {
    bool pending = false;
    for (int j : proc.held)
      pending = pending || rep.config().delivered(j, u) < rep.layout().datasets();
    if (!pending) return;
    rep.waits().wait_any(proc.waiter, {});
    proc.catch_up();
  }
}

namespace {
/// No failure model and one processor per interval: nothing to elect, hand over or wake up. Such a run uses the plain
/// program, so that crash handling costs nothing without a failure model (issue 17).
bool plain_run(const detail::Replication& rep)
{
  // a silent crash (re-mapping with on_crash: remap) fails transfers: the general program waits on after them
  if (rep.waits().failures_possible() || rep.transfers().silent_crashes()) return false;
  for (const Interval& in : rep.layout().mapping().intervals)
    if (in.replicas.size() != 1 || in.replicas.front().size() != 1) return false;
  return true;
}
} // namespace

/// The program of run_processor without failures or replicas: per data set and held interval, receive (unless the
/// input is local), compute, send (unless the next interval is local), with the same records. What the general
/// program decides per transfer (who sends what, when) is fixed here, so it is decided once.
void OnePortDeployment::run_plain(std::size_t index, int u)
{
  struct Step {
    int j;
    sg4::Mailbox* in;  // nullptr: computed here
    sg4::Mailbox* out; // nullptr: the next interval is here
    std::uint64_t bytes;
    double flops;
  };
  detail::Replication& rep = *replication_;
  std::vector<Step> steps;
  for (int j : mapping_.intervals_of(u)) {
    const int next = j + 1 == rep.layout().m() ? platform_.out() : mapping_.interval(j + 1).replicas.front().front();
    steps.push_back(Step{j, rep.layout().input_local(j, u, 0) ? nullptr : rep.layout().mailbox(j, u, 0),
                         next == u ? nullptr : rep.layout().mailbox(j + 1, next, 0), rep.layout().bytes(j + 1, 0),
                         rep.layout().flops(u, rep.layout().work(j, 0))});
  }
  const bool fixed  = rep.layout().fixed_amounts(); // otherwise each data set's flops and bytes from the workload
  SegmentGate* gate = rep.gate();                   // a segment of a handover: tells its progress, starts when let
  const bool signal = gate != nullptr && gate->reached;
  const bool gated  = gate != nullptr && gate->wait_start;
  for (int k = 0; k < rep.layout().datasets(); ++k) {
    if (signal) // one-port: every operation of u's on data sets < k is done (program order)
      for (const Step& s : steps)
        gate->reached(s.j, u, k);
    for (const Step& s : steps) {
      if (gated && k == 0) gate->wait_start(s.j, u);
      if (s.in != nullptr) {
        int* data      = nullptr;
        sg4::CommPtr c = s.in->get_init()->set_dst_data(reinterpret_cast<void**>(&data), sizeof(void*));
        c->start();
        rep.waits().wait_any(nullptr, {c}); // no waiter: no failure model, nothing to be woken by
        if (data == nullptr || *data != k)
          throw std::logic_error(fmt::format("I{} on {}: expected data set {}", s.j + 1, platform_.node_name(u), k));
        record(index, Operation::receive, k, s.j, c->get_start_time(), sg4::Engine::get_clock());
      }
      double start = sg4::Engine::get_clock();
      sg4::this_actor::execute(fixed ? s.flops : rep.layout().flops(u, rep.layout().work(s.j, k)));
      record(index, Operation::compute, k, s.j, start, sg4::Engine::get_clock());
      if (s.out != nullptr) {
        sg4::CommPtr c = s.out->put_init(rep.layout().payload(k), fixed ? s.bytes : rep.layout().bytes(s.j + 1, k));
        c->start();
        rep.waits().wait_any(nullptr, {c}); // no waiter: no failure model, nothing to be woken by
        record(index, Operation::send, k, s.j, c->get_start_time(), sg4::Engine::get_clock());
      }
    }
  }
  if (signal)
    for (const Step& s : steps)
      gate->reached(s.j, u, rep.layout().datasets());
}

OnePortDeployment::OnePortDeployment(const SimulationJob& job, const SimulationSettings& run, RunInputs inputs)
    : ReplicatedDeployment(job, run, std::move(inputs))
{
  plan_oneport(pipeline_, mapping_, platform_.in(), platform_.out()); // refuses what the model does not support
  start_replication(false);
  for (int u : mapping_.processors())
    usage_.push_back(ProcessorUsage{platform_.node_name(u), 0, 0, 0});
}

void OnePortDeployment::deploy()
{
  replication_->deploy();
  if (replication_->finished()) return; // failed at time 0: nothing runs
  auto processors  = mapping_.processors();
  const bool plain = plain_run(*replication_);
  for (std::size_t i = 0; i < processors.size(); ++i) {
    int u = processors[i];
    if (replication_->config().alive(u) && replication_->layout().host(u)->is_on()) // off: a silent crash
      replication_->spawn(platform_.node_name(u), replication_->layout().host(u), [this, i, u, plain] {
        if (plain)
          run_plain(i, u);
        else
          run_processor(i, u);
      });
  }
}

std::unique_ptr<Deployment> make_one_port_deployment(const SimulationJob& job, const SimulationSettings& run,
                                                     RunInputs inputs)
{
  return std::make_unique<OnePortDeployment>(job, run, std::move(inputs));
}

} // namespace pipesim
