// The run of a replicated mapping: its parts, P_in, P_out, the crash injector, the outcome and the result.
#include "simulator/replication.hpp"

#include "base/input_error.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <stdexcept>

namespace sg4 = simgrid::s4u;

namespace pipesim::detail {

Replication::Replication(const Pipeline& pipeline, const Platform& platform, const Mapping& mapping,
                         const SimulationSettings& settings, const RunInputs& inputs, bool allotted)
    : platform_(platform), mapping_(mapping), settings_(settings), stop_(*inputs.stop), gate_(inputs.gate.get()),
      amounts_(*inputs.workload, mapping, pipeline.n(), inputs.size_scale),
      layout_(platform, mapping, inputs.stop->max_datasets(), amounts_),
      // an XML platform or host state profiles (DESIGN.md §3.11) may turn hosts off, whatever the failure model says
      waits_(layout_, record_,
             !settings.crashes.empty() || settings.failures.model == FailureModel::platform ||
                 !platform.xml_file().empty() || platform.profiles().has_state()),
      config_(pipeline, settings, layout_, waits_, record_, inputs.size_scale, allotted),
      transfers_(layout_, config_, waits_, record_)
{
  if (gate_ != nullptr) layout_.set_tag(gate_->tag);
  transfers_.set_silent_crashes(gate_ != nullptr && gate_->silent_crashes);
}

void Replication::crash(int u)
{
  if (record_.finished || !config_.alive(u)) return;
  config_.mark_dead(u);
  if (record_.finished) {
    sg4::Actor::kill_all();
    return;
  }
  for (std::size_t i = 0; i < waits_.lists(); ++i) // the slots, then the elections
    waits_.notify(i);
  config_.announce_elected(); // once the state is whole: creating an actor is a simcall, others run meanwhile
  waits_.wake(nullptr);
}

void Replication::inject()
{
  for (const Crash& c : settings_.crashes) {
    if (c.time <= 0) continue; // applied in deploy()
    sg4::this_actor::sleep_until(c.time);
    auto u = platform_.find(c.host);
    if (!u || !config_.alive(*u)) continue;
    turning_off_ = *u;
    layout_.host(*u)->turn_off();
    turning_off_ = -1;
    crash(*u);
  }
}

void Replication::input()
{
  // an active I_1: data set k to every replica at once, k + 1 once they all took k (docs/semantics.md)
  CrashWaits::Waiter* w = waits_.waiter(layout_.host(platform_.in()));
  for (int k = 0; k < layout_.datasets(); ++k) {
    if (gate_ != nullptr) {
      if (k >= gate_->limit) return;
      gate_->fed = std::max(gate_->fed, k + 1);
    }
    transfers_.send(w, -1, config_.receivers(-1, k), k, nullptr, [](double, double, int) {});
  }
}

void Replication::input_replica(int node)
{
  // a dealt I_1: each replica is fed its data sets as fast as it takes them (P_in is never the bottleneck)
  CrashWaits::Waiter* w = waits_.waiter(layout_.host(platform_.in()));
  for (int k = layout_.first(0, node); k < layout_.datasets(); k += layout_.stride(0)) {
    if (gate_ != nullptr) {
      if (k >= gate_->limit) return;
      gate_->fed = std::max(gate_->fed, k + 1);
    }
    transfers_.send(w, -1, std::span<const int>(&node, 1), k, nullptr, [](double, double, int) {});
  }
}

void Replication::output()
{
  CrashWaits::Waiter* w = config_.allotted() ? waits_.waiter(layout_.host(platform_.out())) : nullptr;
  for (int k = 0; k < layout_.datasets(); ++k) {
    transfers_.receive(w, layout_.m(), platform_.out(), k, nullptr, [](double, double, int) {});
    if (output_one(sg4::Engine::get_clock())) break;
  }
  survived();
}

void Replication::output_any_order()
{
  // a dealt last interval: every replica's deliveries are taken when they come; data set k is output once 0..k have
  // all arrived (the running maximum of the arrival times). The rates into P_out do not change with crashes
  // elsewhere, and a crash of a replica with work left fails the run: no wake-ups needed.
  const int out = platform_.out();
  const int r   = layout_.stride(layout_.m() - 1);
  std::vector<int> next(static_cast<std::size_t>(r)); // per replica: the data set it delivers next
  std::vector<sg4::CommPtr> comms(static_cast<std::size_t>(r));
  std::vector<int*> data(static_cast<std::size_t>(r), nullptr);
  auto post = [&](std::size_t i) {
    comms[i] = layout_.mailbox(layout_.m(), out, next[i])
                   ->get_init()
                   ->set_dst_data(reinterpret_cast<void**>(&data[i]), sizeof(void*));
    if (double rate_cap = config_.rate(layout_.m(), out, next[i]); rate_cap > 0) comms[i]->set_rate(rate_cap);
    comms[i]->start();
  };
  std::vector<bool> arrived(static_cast<std::size_t>(layout_.datasets()), false);
  std::vector<std::size_t> posted; // replicas with a receive posted, in the order of `pending`
  for (std::size_t i = 0; i < next.size(); ++i)
    if ((next[i] = static_cast<int>(i)) < layout_.datasets()) post(i);
  while (record_.output_times.size() < arrived.size()) {
    std::vector<sg4::CommPtr> pending;
    posted.clear();
    for (std::size_t i = 0; i < next.size(); ++i)
      if (next[i] < layout_.datasets()) {
        pending.push_back(comms[i]);
        posted.push_back(i);
      }
    long got = waits_.wait_any(nullptr, pending);
    if (got < 0) { // the sender crashed during a transfer (the verdict is on its way): post again
      for (std::size_t i : posted)
        if (comms[i]->get_state() == sg4::Activity::State::FAILED) post(i);
      continue;
    }
    std::size_t i                                  = posted[static_cast<std::size_t>(got)];
    arrived.at(static_cast<std::size_t>(*data[i])) = true;
    bool enough                                    = false;
    while (!enough && record_.output_times.size() < arrived.size() && arrived[record_.output_times.size()])
      enough = output_one(sg4::Engine::get_clock());
    if (enough) break;
    if ((next[i] += r) < layout_.datasets()) post(i);
  }
  if (gate_ != nullptr) // a segment's P_out lives on to hand over: its receives still posted would take the next
    for (const sg4::CommPtr& c : comms) // segment's deliveries from the same mailboxes
      if (c && c->get_state() != sg4::Activity::State::FINISHED) c->cancel();
  survived();
}

bool Replication::output_one(double t)
{
  record_.output_times.push_back(t);
  record_.count_output();
  if (gate_ == nullptr) return stop_.enough(record_.output_times);
  if (gate_->outputs != nullptr) gate_->outputs->push_back(t);
  return stop_.enough(record_.output_times) || static_cast<int>(record_.output_times.size()) >= gate_->limit;
}

void Replication::survived()
{
  record_.outcome.delivered = static_cast<int>(record_.output_times.size());
  record_.outcome.verdict   = Verdict::survived;
  record_.finished          = true;
  if (gate_ != nullptr && gate_->own_actors) { // a handover: the next segment's actors run on
    for (const sg4::ActorPtr& a : gate_->actors)
      if (a != sg4::Actor::self()) a->kill();
  } else
    sg4::Actor::kill_all(); // replicas still computing, the injector, waiters: the run is over
  if (gate_ != nullptr && gate_->on_end) gate_->on_end(); // a drain's hand-over to the next segment
}

void Replication::deploy()
{
  if (gate_ != nullptr) gate_->stop = [this] { survived(); };
  layout_.make_mailboxes();
  waits_.make_lists(config_.wait_lists());
  for (const Crash& c : settings_.crashes)
    if (c.time <= 0)
      if (auto u = platform_.find(c.host); u && config_.alive(*u)) config_.mark_dead(*u);
  // a processor a state profile turned off before the run is crashed from time 0, and stays crashed if the profile
  // turns it on again: fail-silent, no recovery (DESIGN.md §3.5; docs/dynamic.md). With silent crashes the re-mapping
  // controller turned it off: the deployment only creates no actor there (SegmentGate::silent_crashes).
  const bool silent = transfers_.silent_crashes();
  for (int u : mapping_.processors())
    if (!silent && config_.alive(u) && !layout_.host(u)->is_on()) config_.mark_dead(u);
  for (int io : {platform_.in(), platform_.out()}) // attach_xml_profiles refuses their state profiles
    if (!layout_.host(io)->is_on())
      throw InputError::in_file(platform_.xml_file(), 0,
                                fmt::format("host '{}' (P_in or P_out) is off when the run starts: pipesim's I/O "
                                            "servers never fail",
                                            platform_.node_name(io)));
  config_.update_rates();
  if (record_.finished) return;                // failed at time 0: nothing runs
  if (settings_.progress != ProgressMode::off) // its final line when the deployment ends, before the result is sent
    record_.progress = std::make_unique<Progress>(settings_.crashes.empty() ? "simulation" : "crash run", "data sets",
                                                  layout_.datasets(), settings_.progress);
  if (!silent && (!platform_.xml_file().empty() || platform_.profiles().has_state())) // a state profile: a crash
    sg4::Host::on_state_change.connect([this](const sg4::Host& h) {
      if (h.is_on() || record_.finished) return;
      auto u = platform_.find(h.get_name());
      if (!u || *u == turning_off_ || !config_.alive(*u)) return;
      int node = *u;
      sg4::Actor::create("pipesim-crash", layout_.host(platform_.in()), [this, node] { crash(node); });
    });
  if (layout_.dealt(0))
    for (const auto& group : mapping_.interval(0).replicas)
      spawn("P_in", layout_.host(platform_.in()), [this, node = group.front()] { input_replica(node); });
  else
    spawn("P_in", layout_.host(platform_.in()), [this] { input(); });
  if (layout_.dealt(layout_.m() - 1))
    spawn("P_out", layout_.host(platform_.out()), [this] { output_any_order(); });
  else
    spawn("P_out", layout_.host(platform_.out()), [this] { output(); });
  if (!settings_.crashes.empty())
    sg4::Actor::create("pipesim-injector", layout_.host(platform_.in()), [this] { inject(); });
}

FailureOutcome Replication::outcome() const
{
  FailureOutcome o = record_.outcome;
  o.delivered      = static_cast<int>(record_.output_times.size());
  auto period_of   = [&](std::vector<double> times, int cooldown) {
    if (times.size() < 4) return -1.0;
    int n = static_cast<int>(times.size());
    return measured_period(times, n / 2, std::min(cooldown, n / 4), layout_.window());
  };
  if (!o.crashes.empty()) {
    double first = o.crashes.front().time, last = o.crashes.back().time;
    std::vector<double> before, after;
    for (double t : record_.output_times) {
      if (t < first) before.push_back(t);
      if (t > last) after.push_back(t);
    }
    o.period_before = period_of(before, 0);
    o.period_after  = period_of(after, settings_.effective_cooldown());
  }
  return o;
}

SimulationResult make_result(const Replication& replication, const SimulationSettings& settings,
                             std::vector<ProcessorUsage> usage, std::vector<TraceEvent> trace)
{
  SimulationResult r;
  r.failures     = replication.outcome();
  r.output_times = replication.output_times();
  if (!replication.finished())
    throw std::runtime_error(fmt::format("simulation ended without a verdict with {} of {} data sets delivered "
                                         "(SimGrid stopped the actors: a deadlock)",
                                         r.output_times.size(), settings.datasets));
  r.seed     = settings.seed;
  r.period   = measured_period(r.output_times, settings.effective_warmup(), settings.effective_cooldown(),
                               replication.layout().window());
  r.makespan = r.failures.failed() ? r.failures.failure_time : (r.output_times.empty() ? 0 : r.output_times.back());
  for (auto& u : usage)
    if (r.makespan > 0) {
      u.compute /= r.makespan;
      u.send /= r.makespan;
      u.receive /= r.makespan;
    }
  r.usage   = std::move(usage);
  r.trace   = std::move(trace);
  r.network = settings.network;
  return r;
}

} // namespace pipesim::detail
