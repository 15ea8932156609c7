// Active replication under crashes: elections, delivery counters, injector, verdict, P_in and P_out.
#include "simulator/replication.hpp"

#include "base/input_error.hpp"
#include "model/allotment.hpp"
#include "model/multiport_analytic.hpp"
#include "model/oneport_plan.hpp"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <simgrid/Exception.hpp>
#include <stdexcept>
#include <xbt/config.hpp>

namespace sg4 = simgrid::s4u;

namespace pipesim::detail {

Replication::Replication(const Pipeline& pipeline, const Platform& platform, const Mapping& mapping,
                         const SimulationSettings& settings, double size_scale, bool allotted)
    : pipeline_(pipeline), platform_(platform), mapping_(mapping), settings_(settings), size_scale_(size_scale),
      allotted_(allotted), datasets_(settings.datasets)
{
  if (mapping.data_parallel()) throw InputError("simulation: data-parallel processor groups are not supported yet");
  if (mapping.has_deal()) throw InputError("simulation: deal replication is not supported yet");
  auto names = election_policy_names();
  if (std::ranges::find(names, settings.failures.election) == names.end())
    throw InputError(fmt::format("simulation.failures.election: unknown policy '{}' (expected one of: {})",
                                 settings.failures.election, fmt::join(names, ", ")));
  policy_ =
      bbr10_election(settings.failures.election == "first" ? "first-alive" : settings.failures.election, settings.seed);
  outcome_.election = settings.failures.election;
  // an XML platform may turn hosts off by its state profiles, whatever the failure model says
  failures_possible_ =
      !settings.crashes.empty() || settings.failures.model == "platform" || !platform.xml_file().empty();
  for (int j = 0; j <= m(); ++j) {
    int stage   = j < m() ? mapping.interval(j).first - 1 : pipeline.n();
    double size = pipeline.data(stage) * size_scale;
    bytes_.push_back(static_cast<std::uint64_t>(std::llround(size)));
  }
  for (int k = 0; k < datasets_; ++k)
    ids_.push_back(k);
  alive_.assign(static_cast<std::size_t>(platform.p()), true);
  elected_.assign(static_cast<std::size_t>(m()), -1);
  elected_ = elect().sender; // here, so that a policy's InputError (exhaustive: too many elections) comes first
  sending_.assign(static_cast<std::size_t>(m()), -1);
  delivered_.assign(static_cast<std::size_t>(m()), 0);
  started_.assign(static_cast<std::size_t>(m()), 0);
}

sg4::Mailbox* Replication::mailbox(int j, int node) const { return mailboxes_.at({j, node}); }

sg4::Host* Replication::host(int node) const
{
  const std::string& name = platform_.node_name(node);
  sg4::Host* h            = sg4::Host::by_name_or_null(name);
  if (h == nullptr) throw InputError(fmt::format("simulation: host '{}' is not in the SimGrid platform", name));
  return h;
}

double Replication::flops(int node, double w) const
{
  double host_speed = host(node)->get_speed();
  double s          = platform_.speed(node);
  return host_speed == s ? w : w * host_speed / s; // keeps unedited runs bit-exact
}

void Replication::set_delivered(int j, int value)
{
  delivered_.at(static_cast<std::size_t>(j)) = value;
  // a delivered data set has left the output buffer, whoever sent it: after a handover the old sender may deliver
  // past what the new one has started (which a crash reset to delivered(j)), and the new one's computer waits on it
  auto& started = started_.at(static_cast<std::size_t>(j));
  started       = std::max(started, value);
  notify(j);
}

void Replication::begin_send(int j, int node) { sending_.at(static_cast<std::size_t>(j)) = node; }

void Replication::end_send(int j, int node)
{
  sending_.at(static_cast<std::size_t>(j)) = -1;
  int now                                  = elected(j);
  if (now == node || now < 0) return;
  // handover: the elected replica waits in wait_change (multi-port sender) or for a wake-up (one-port program)
  notify(j);
  if (settings_.model != "multi-port") wake(host(now));
}

void Replication::set_started(int j, int value)
{
  started_.at(static_cast<std::size_t>(j)) = value;
  notify(j);
}

std::vector<int> Replication::receivers(int j) const
{
  if (j + 1 == m()) return {platform_.out()};
  std::vector<int> nodes;
  for (const auto& group : mapping_.interval(j + 1).replicas) {
    int v = group.front();
    if (alive(v) && (j < 0 || !mapping_.interval(j).holds(v))) nodes.push_back(v);
  }
  return nodes;
}

double Replication::rate(int j, int node) const
{
  auto it = rates_.find({j, node});
  return it == rates_.end() ? -1.0 : it->second;
}

void Replication::update_rates()
{
  rates_.clear();
  if (!allotted_) return;
  // the allotment of the current configuration: the mapping reduced to its alive replicas, the elected senders
  Mapping reduced = mapping_;
  for (int j = 0; j < m(); ++j) {
    auto& replicas = reduced.intervals[static_cast<std::size_t>(j)].replicas;
    std::erase_if(replicas, [&](const ProcessorGroup& g) { return !alive(g.front()); });
    if (replicas.empty()) return; // the run has failed
  }
  OnePortPlan plan = plan_oneport(pipeline_, reduced, platform_.in(), platform_.out(), elected_);
  auto times       = allotted_transfer_times(plan, platform_);
  for (std::size_t t = 0; t < plan.transfers.size(); ++t) {
    const auto& tr = plan.transfers[t];
    if (times[t] > 0) rates_[{tr.interval, tr.to}] = tr.bytes * size_scale_ / times[t];
  }
}

void Replication::notify(int j)
{
  if (sleepers_.empty()) return;
  // release() is a simcall: other actors run meanwhile, may wait again, or kill this one (a crash of its host).
  // Entries stay listed until released, so a crash's notify wakes whoever a killed notifier did not reach.
  auto snapshot = sleepers_.at(static_cast<std::size_t>(j));
  for (auto& sleeper : snapshot)
    if (!sleeper->released) {
      sleeper->released = true;
      sleeper->sem->release();
    }
  std::erase_if(sleepers_.at(static_cast<std::size_t>(j)), [](const auto& s) { return s->released; });
}

void Replication::wait_change(int j, const sg4::SemaphorePtr& sem)
{
  // a semaphore per actor (created beforehand: creating one is a simcall, and a notify could slip in between the
  // caller's test and this wait): a killed actor leaves nothing to undo, unlike a condition variable's lock
  sleepers_.at(static_cast<std::size_t>(j)).push_back(std::make_shared<Sleeper>(Sleeper{sem, false}));
  sem->acquire();
}

Replication::Waiter* Replication::waiter(sg4::Host* host)
{
  if (!failures_possible_) return nullptr;
  // by_name is a simcall (other actors run meanwhile): take the slot first
  waiters_.push_back(std::make_unique<Waiter>());
  Waiter* w  = waiters_.back().get();
  w->host    = host;
  w->control = sg4::Mailbox::by_name(fmt::format("pipesim-control-{}", waiters_.size() - 1));
  return w;
}

long Replication::wait_any(Waiter* w, const std::vector<sg4::CommPtr>& comms)
{
  std::vector<sg4::CommPtr> all = comms;
  if (w != nullptr) {
    if (!w->pending) w->pending = w->control->get_async<int>(&w->slot);
    all.push_back(w->pending);
  }
  try {
    auto i = static_cast<long>(sg4::Comm::wait_any(all));
    if (w != nullptr && i == static_cast<long>(comms.size())) {
      w->pending = nullptr;
      return woken;
    }
    return i;
  } catch (const simgrid::NetworkFailureException&) {
    for (const auto& c : comms) // Comm::wait_any marks every comm that failed
      if (c->get_state() == sg4::Activity::State::FAILED) check_link_failure(c);
    return failed;
  }
}

namespace {
/// The first link of the route from -> to that is off, or "".
std::string off_link(const sg4::Host* from, const sg4::Host* to)
{
  std::vector<sg4::Link*> links;
  from->route_to(to, links, nullptr);
  for (const sg4::Link* link : links)
    if (!link->is_on()) return link->get_name();
  return "";
}
} // namespace

void Replication::check_link_failure(const sg4::CommPtr& c)
{
  // a station's transfer: its hosts are known once it started (a transfer that never started has no route)
  auto station = station_interval_.find(c->get_mailbox());
  if (station == station_interval_.end() || c->get_source() == nullptr || c->get_destination() == nullptr) return;
  // SimGrid 3.32 fails a transfer whose route (and, with cross traffic, way back) crosses an off link
  // (NetworkCm02Model::comm_get_route_info); a peer's crash fails it too, but then the route is up
  std::string link = off_link(c->get_source(), c->get_destination());
  if (link.empty() && simgrid::config::get_value<bool>("network/crosstraffic"))
    link = off_link(c->get_destination(), c->get_source());
  if (link.empty()) return;
  if (!finished_) {
    // the sending interval; P_in's transfers count for I_1
    outcome_.verdict         = "failed";
    outcome_.failure_time    = sg4::Engine::get_clock();
    outcome_.failed_interval = std::max(station->second - 1, 0);
    outcome_.failed_link     = link;
    finished_                = true;
    sg4::Actor::kill_all();
  }
  sg4::this_actor::exit();
}

void Replication::receive(Waiter* w, int j, int node, int k, const std::function<void()>& on_wake, const Record& record)
{
  sg4::Mailbox* mb = mailbox(j, node);
  for (;;) {
    int* data      = nullptr;
    sg4::CommPtr c = mb->get_init()->set_dst_data(reinterpret_cast<void**>(&data), sizeof(void*));
    // the rate cap goes on both sides: SimGrid keeps the settings of whichever side created the communication
    if (double r = rate(j, node); r > 0) c->set_rate(r);
    c->start();
    long i = wait_any(w, {c});
    while (i == woken && mb->empty()) // matched: the transfer runs to its end (or fails)
      i = wait_any(w, {c});
    if (i == woken) { // still unmatched: give the caller a chance to act, then post again (the rate may change)
      c->cancel();
      if (on_wake) on_wake();
      continue;
    }
    if (i == failed) continue; // the sender crashed during the transfer: the next elected sends again
    if (data == nullptr) throw std::logic_error("receive without payload");
    record(c->get_start_time(), sg4::Engine::get_clock(), *data);
    if (*data == k) return;
    if (*data < k) {
      ++outcome_.duplicates;
      continue;
    }
    throw std::logic_error(
        fmt::format("station I{} on {}: expected data set {}, got {}", j + 1, platform_.node_name(node), k, *data));
  }
}

bool Replication::send(Waiter* w, int j, const std::vector<int>& dests, int k, const std::function<bool()>& interrupt,
                       const Record& record)
{
  struct Out {
    int dest = 0;
    sg4::CommPtr comm;
  };
  auto post = [&](int dest) {
    sg4::CommPtr c = mailbox(j + 1, dest)->put_init(&ids_[static_cast<std::size_t>(k)], bytes(j + 1));
    if (double r = rate(j + 1, dest); r > 0) c->set_rate(r);
    c->start();
    return c;
  };
  std::vector<Out> outs;
  for (int dest : dests)
    if (alive(dest)) outs.push_back({dest, post(dest)});
  while (!outs.empty()) {
    std::vector<sg4::CommPtr> comms;
    for (const auto& o : outs)
      comms.push_back(o.comm);
    long i = wait_any(w, comms);
    if (i >= 0) {
      record(outs[static_cast<std::size_t>(i)].comm->get_start_time(), sg4::Engine::get_clock(), k);
      outs.erase(outs.begin() + i);
      continue;
    }
    if (i == failed) { // a receiver crashed during its transfer; the others may have completed meanwhile
      std::erase_if(outs, [&](Out& o) {
        try {
          if (o.comm->get_state() != sg4::Activity::State::FAILED) {
            if (!o.comm->test()) return false;
            record(o.comm->get_start_time(), sg4::Engine::get_clock(), k);
            return true;
          }
        } catch (const simgrid::NetworkFailureException&) {
        }
        check_link_failure(o.comm); // a crashed receiver's transfer, or a link failure: then the run ends here
        return true;
      });
      continue;
    }
    // woken: a crash. Unmatched transfers to crashed receivers are cancelled (nothing will ever match them).
    bool give_up = interrupt && interrupt();
    bool gave_up = false;
    for (auto& o : outs) {
      bool unmatched = !mailbox(j + 1, o.dest)->empty();
      if (!alive(o.dest) || (unmatched && give_up)) {
        if (unmatched) o.comm->cancel();
        gave_up = gave_up || alive(o.dest);
        o.dest  = -1;
      } else if (unmatched && allotted_) { // the allotment changed with the configuration
        o.comm->cancel();
        o.comm = post(o.dest);
      }
    }
    std::erase_if(outs, [](const Out& o) { return o.dest < 0; });
    if (gave_up) {
      for (auto& o : outs) { // matched transfers still run to their end
        try {
          o.comm->wait();
          record(o.comm->get_start_time(), sg4::Engine::get_clock(), k);
          continue;
        } catch (const simgrid::NetworkFailureException&) {
        }
        check_link_failure(o.comm);
      }
      return false;
    }
  }
  return true;
}

Election Replication::elect() const
{
  FailureConfiguration config{alive_};
  if (every_interval_survives(mapping_, config)) return policy_(pipeline_, platform_, mapping_, config);
  // an interval lost every replica: the run fails unless its output was fully delivered; the others keep an alive
  // sender, or take their first alive replica (the policies need a survivor in every interval)
  Election election = first_alive_election(mapping_, config);
  for (int j = 0; j < m(); ++j)
    if (int e = elected(j); e >= 0 && alive(e)) election.sender[static_cast<std::size_t>(j)] = e;
  return election;
}

void Replication::mark_dead(int u)
{
  alive_.at(static_cast<std::size_t>(u)) = false;
  outcome_.crashes.push_back(Crash{platform_.node_name(u), sg4::Engine::get_clock()});
  for (int& s : sending_)
    if (s == u) s = -1; // its transfers failed (in progress) or left the mailboxes (not started)
  Election election = elect();
  for (int j = 0; j < m(); ++j) {
    int before = elected(j);
    int now    = election.sender.at(static_cast<std::size_t>(j));
    if (now == before) continue;
    elected_[static_cast<std::size_t>(j)] = now;
    started_[static_cast<std::size_t>(j)] = delivered(j);
    if (now >= 0) ++outcome_.elections;
  }
  for (int j = 0; j < m(); ++j)
    if (elected(j) < 0 && delivered(j) < datasets_) {
      outcome_.verdict         = "failed";
      outcome_.failure_time    = sg4::Engine::get_clock();
      outcome_.failed_interval = j;
      finished_                = true;
      return;
    }
  update_rates();
}

void Replication::crash(int u)
{
  if (finished_ || !alive(u)) return;
  mark_dead(u);
  if (finished_) {
    sg4::Actor::kill_all();
    return;
  }
  for (int j = 0; j < m(); ++j)
    notify(j);
  wake(nullptr);
}

void Replication::wake(sg4::Host* only)
{
  // wake the waiting actors (all, or those on `only`) from their own host: a 0-byte loopback message arrives at once
  std::map<sg4::Host*, std::vector<sg4::Mailbox*>> by_host;
  for (const auto& w : waiters_)
    if (w->host->is_on() && (only == nullptr || w->host == only)) by_host[w->host].push_back(w->control);
  for (auto& host_boxes : by_host) // no structured binding: clang 14 cannot capture one (the fuzz preset)
    sg4::Actor::create("pipesim-wake", host_boxes.first, [this, boxes = host_boxes.second] {
      for (sg4::Mailbox* mb : boxes)
        mb->put_init(&token_, 0)->detach();
    });
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
  Waiter* w = waiter(host(platform_.in()));
  for (int k = 0; k < datasets_; ++k)
    send(w, -1, receivers(-1), k, nullptr, [](double, double, int) {});
}

void Replication::output()
{
  Waiter* w = allotted_ ? waiter(host(platform_.out())) : nullptr;
  for (int k = 0; k < datasets_; ++k) {
    receive(w, m(), platform_.out(), k, nullptr, [](double, double, int) {});
    output_times_.push_back(sg4::Engine::get_clock());
  }
  outcome_.delivered = datasets_;
  outcome_.verdict   = "survived";
  finished_          = true;
  sg4::Actor::kill_all(); // replicas still computing, the injector, waiters: the run is over
}

void Replication::deploy()
{
  // every station's mailbox, created here: Mailbox::by_name is a simcall, so actors sharing a lazy map would race
  for (int j = 0; j < m(); ++j)
    for (const auto& group : mapping_.interval(j).replicas)
      mailboxes_[{j, group.front()}] = sg4::Mailbox::by_name(fmt::format("pipesim-{}-{}", j, group.front()));
  mailboxes_[{m(), platform_.out()}] = sg4::Mailbox::by_name(fmt::format("pipesim-{}-{}", m(), platform_.out()));
  for (const auto& [station, mb] : mailboxes_)
    station_interval_[mb] = station.first;
  sleepers_.resize(static_cast<std::size_t>(m()));
  for (const Crash& c : settings_.crashes)
    if (c.time <= 0)
      if (auto u = platform_.find(c.host); u && alive(*u)) mark_dead(*u);
  update_rates();
  if (finished_) return; // failed at time 0: nothing runs
  if (!platform_.xml_file().empty())
    sg4::Host::on_state_change.connect([this](const sg4::Host& h) {
      if (h.is_on() || finished_) return;
      auto u = platform_.find(h.get_name());
      if (!u || *u == turning_off_ || !alive(*u)) return;
      int node = *u;
      sg4::Actor::create("pipesim-crash", host(platform_.in()), [this, node] { crash(node); });
    });
  sg4::Actor::create("P_in", host(platform_.in()), [this] { input(); });
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
    return measured_period(times, n / 2, std::min(cooldown, n / 4));
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
  if (r.failures.verdict.empty())
    throw std::runtime_error(fmt::format("simulation ended without a verdict with {} of {} data sets delivered "
                                         "(SimGrid stopped the actors: a deadlock)",
                                         r.output_times.size(), settings.datasets));
  r.seed   = settings.seed;
  r.period = measured_period(r.output_times, settings.effective_warmup(), settings.effective_cooldown());
  r.makespan =
      r.failures.verdict == "failed" ? r.failures.failure_time : (r.output_times.empty() ? 0 : r.output_times.back());
  for (auto& u : usage)
    if (r.makespan > 0) {
      u.compute /= r.makespan;
      u.send /= r.makespan;
      u.receive /= r.makespan;
    }
  r.usage   = std::move(usage);
  r.trace   = std::move(trace);
  r.network = to_string(settings.network);
  return r;
}

} // namespace pipesim::detail
