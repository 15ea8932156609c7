// The run of a replicated mapping: mailboxes, P_in, P_out, the crash injector, the outcome and the result.
#include "simulator/replication.hpp"

#include "simulator/engine_reuse.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <stdexcept>

namespace sg4 = simgrid::s4u;

namespace pipesim::detail {

sg4::Mailbox* Replication::mailbox(int j, int node, int k) const
{
  if (j > 0 && dealt(j - 1)) return sender_mailboxes_.at({j, node, sender(j - 1, k)});
  return mailboxes_.at({j, node});
}

void Replication::make_mailboxes()
{
  // every station's mailbox, created here: Mailbox::by_name is a simcall, so actors sharing a lazy map would race
  auto create = [&](int j, int node) {
    if (j == 0 || !dealt(j - 1)) {
      auto* mb              = sg4::Mailbox::by_name(fmt::format("pipesim-{}-{}", j, node));
      mailboxes_[{j, node}] = mb;
      note_mailbox(mb);
      station_interval_[mb] = j;
      return;
    }
    for (const auto& from : mapping_.interval(j - 1).replicas) { // one per sender: I_{j-1} is dealt
      auto* mb = sg4::Mailbox::by_name(fmt::format("pipesim-{}-{}-from-{}", j, node, from.front()));
      sender_mailboxes_[{j, node, from.front()}] = mb;
      note_mailbox(mb);
      station_interval_[mb] = j;
    }
  };
  for (int j = 0; j < m(); ++j)
    for (const auto& group : mapping_.interval(j).replicas)
      create(j, group.front());
  create(m(), platform_.out());
}

void Replication::inject()
{
  for (const Crash& c : settings_.crashes) {
    if (c.time <= 0) continue; // applied in deploy()
    sg4::this_actor::sleep_until(c.time);
    auto u = platform_.find(c.host);
    if (!u || !alive(*u)) continue;
    turning_off_ = *u;
    host(*u)->turn_off();
    turning_off_ = -1;
    crash(*u);
  }
}

void Replication::input()
{
  // an active I_1: data set k to every replica at once, k + 1 once they all took k (docs/semantics.md)
  Waiter* w = waiter(host(platform_.in()));
  for (int k = 0; k < datasets_; ++k)
    send(w, -1, receivers(-1, k), k, nullptr, [](double, double, int) {});
}

void Replication::input_replica(int node)
{
  // a dealt I_1: each replica is fed its data sets as fast as it takes them (P_in is never the bottleneck)
  Waiter* w = waiter(host(platform_.in()));
  for (int k = first(0, node); k < datasets_; k += stride(0))
    send(w, -1, std::span<const int>(&node, 1), k, nullptr, [](double, double, int) {});
}

void Replication::output()
{
  Waiter* w = allotted_ ? waiter(host(platform_.out())) : nullptr;
  for (int k = 0; k < datasets_; ++k) {
    receive(w, m(), platform_.out(), k, nullptr, [](double, double, int) {});
    output_times_.push_back(sg4::Engine::get_clock());
    count_output();
  }
  survived();
}

void Replication::output_any_order()
{
  // a dealt last interval: every replica's deliveries are taken when they come; data set k is output once 0..k have
  // all arrived (the running maximum of the arrival times). The rates into P_out do not change with crashes
  // elsewhere, and a crash of a replica with work left fails the run: no wake-ups needed.
  const int out = platform_.out();
  const int r   = stride(m() - 1);
  std::vector<int> next(static_cast<std::size_t>(r)); // per replica: the data set it delivers next
  std::vector<sg4::CommPtr> comms(static_cast<std::size_t>(r));
  std::vector<int*> data(static_cast<std::size_t>(r), nullptr);
  auto post = [&](std::size_t i) {
    comms[i] = mailbox(m(), out, next[i])->get_init()->set_dst_data(reinterpret_cast<void**>(&data[i]), sizeof(void*));
    if (double rate_cap = rate(m(), out, next[i]); rate_cap > 0) comms[i]->set_rate(rate_cap);
    comms[i]->start();
  };
  std::vector<bool> arrived(static_cast<std::size_t>(datasets_), false);
  std::vector<std::size_t> posted; // replicas with a receive posted, in the order of `pending`
  for (std::size_t i = 0; i < next.size(); ++i)
    if ((next[i] = static_cast<int>(i)) < datasets_) post(i);
  while (output_times_.size() < arrived.size()) {
    std::vector<sg4::CommPtr> pending;
    posted.clear();
    for (std::size_t i = 0; i < next.size(); ++i)
      if (next[i] < datasets_) {
        pending.push_back(comms[i]);
        posted.push_back(i);
      }
    long got = wait_any(nullptr, pending);
    if (got < 0) { // the sender crashed during a transfer (the verdict is on its way): post again
      for (std::size_t i : posted)
        if (comms[i]->get_state() == sg4::Activity::State::FAILED) post(i);
      continue;
    }
    std::size_t i                                  = posted[static_cast<std::size_t>(got)];
    arrived.at(static_cast<std::size_t>(*data[i])) = true;
    while (output_times_.size() < arrived.size() && arrived[output_times_.size()])
      output_times_.push_back(sg4::Engine::get_clock());
    count_output();
    if ((next[i] += r) < datasets_) post(i);
  }
  survived();
}

void Replication::survived()
{
  outcome_.delivered = datasets_;
  outcome_.verdict   = Verdict::survived;
  finished_          = true;
  sg4::Actor::kill_all(); // replicas still computing, the injector, waiters: the run is over
}

void Replication::deploy()
{
  make_mailboxes();
  sleepers_.resize(slots_.size() + static_cast<std::size_t>(m()));
  for (const Crash& c : settings_.crashes)
    if (c.time <= 0)
      if (auto u = platform_.find(c.host); u && alive(*u)) mark_dead(*u);
  update_rates();
  if (finished_) return;                       // failed at time 0: nothing runs
  if (settings_.progress != ProgressMode::off) // its final line when the deployment ends, before the result is sent
    progress_ = std::make_unique<Progress>(settings_.crashes.empty() ? "simulation" : "crash run", "data sets",
                                           datasets_, settings_.progress);
  if (!platform_.xml_file().empty() || platform_.profiles().has_state()) // a state profile turns a host off: a crash
    sg4::Host::on_state_change.connect([this](const sg4::Host& h) {
      if (h.is_on() || finished_) return;
      auto u = platform_.find(h.get_name());
      if (!u || *u == turning_off_ || !alive(*u)) return;
      int node = *u;
      sg4::Actor::create("pipesim-crash", host(platform_.in()), [this, node] { crash(node); });
    });
  if (dealt(0))
    for (const auto& group : mapping_.interval(0).replicas)
      sg4::Actor::create("P_in", host(platform_.in()), [this, node = group.front()] { input_replica(node); });
  else
    sg4::Actor::create("P_in", host(platform_.in()), [this] { input(); });
  if (dealt(m() - 1))
    sg4::Actor::create("P_out", host(platform_.out()), [this] { output_any_order(); });
  else
    sg4::Actor::create("P_out", host(platform_.out()), [this] { output(); });
  if (!settings_.crashes.empty()) sg4::Actor::create("pipesim-injector", host(platform_.in()), [this] { inject(); });
}

FailureOutcome Replication::outcome() const
{
  FailureOutcome o = outcome_;
  o.delivered      = static_cast<int>(output_times_.size());
  auto period_of   = [&](std::vector<double> times, int cooldown) {
    if (times.size() < 4) return -1.0;
    int n = static_cast<int>(times.size());
    return measured_period(times, n / 2, std::min(cooldown, n / 4), window_);
  };
  if (!o.crashes.empty()) {
    double first = o.crashes.front().time, last = o.crashes.back().time;
    std::vector<double> before, after;
    for (double t : output_times_) {
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
  r.seed = settings.seed;
  r.period =
      measured_period(r.output_times, settings.effective_warmup(), settings.effective_cooldown(), replication.window());
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
