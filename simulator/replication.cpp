// Replication of intervals: who processes and sends each data set, elections, output counters, verdict.
#include "simulator/replication.hpp"

#include "base/input_error.hpp"
#include "model/allotment.hpp"
#include "model/deal.hpp"
#include "model/multiport_analytic.hpp"
#include "model/oneport_plan.hpp"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <stdexcept>
#include <utility>

namespace sg4 = simgrid::s4u;

namespace pipesim::detail {

Replication::Replication(const Pipeline& pipeline, const Platform& platform, const Mapping& mapping,
                         const SimulationSettings& settings, double size_scale, bool allotted)
    : pipeline_(pipeline), platform_(platform), mapping_(mapping), settings_(settings), size_scale_(size_scale),
      allotted_(allotted), datasets_(settings.datasets), window_(deal_round(mapping))
{
  if (mapping.data_parallel())
    throw InputError::keyed(first_group_key(mapping), "simulation: data-parallel processor groups are not supported "
                                                      "yet");
  const ElectionPolicy election = settings.failures.election;
  if (mapping.has_deal() && election != ElectionPolicy::first && election != ElectionPolicy::first_alive)
    throw InputError::keyed("simulation.failures.election", election,
                            fmt::format("this policy elects among active replicas only (seed 004), and {} deals its "
                                        "data sets (replication: deal); use 'first'",
                                        first_deal_key(mapping)));
  policy_           = bbr10_election(election, settings.seed);
  outcome_.election = election;
  // an XML platform may turn hosts off by its state profiles, whatever the failure model says
  failures_possible_ =
      !settings.crashes.empty() || settings.failures.model == FailureModel::platform || !platform.xml_file().empty();
  for (int j = 0; j <= m(); ++j) {
    int stage   = j < m() ? mapping.interval(j).first - 1 : pipeline.n();
    double size = pipeline.data(stage) * size_scale;
    bytes_.push_back(static_cast<std::uint64_t>(std::llround(size)));
  }
  for (int k = 0; k < datasets_; ++k)
    ids_.push_back(k);
  alive_.assign(static_cast<std::size_t>(platform.p()), true);
  hosts_.assign(static_cast<std::size_t>(platform.nodes()), nullptr);
  for (int j = 0; j < m(); ++j) {
    dealt_.push_back(is_dealt(mapping.interval(j)));
    replica_.emplace_back(static_cast<std::size_t>(platform.nodes()), -1);
    const auto& replicas = mapping.interval(j).replicas;
    for (std::size_t r = 0; r < replicas.size(); ++r)
      replica_.back().at(static_cast<std::size_t>(replicas[r].front())) = static_cast<int>(r);
  }
  elected_.assign(static_cast<std::size_t>(m()), -1);
  elected_ = elect().sender; // here, so that a policy's InputError (exhaustive: too many elections) comes first
  make_slots();
}

void Replication::make_slots()
{
  for (int j = 0; j < m(); ++j) {
    slot_base_.push_back(slots_.size());
    for (int r = 0; r < (dealt(j) ? stride(j) : 1); ++r)
      slots_.push_back(Slot{r, stride(j), 0, 0, -1});
  }
}

int Replication::replica(int j, int node) const
{
  return replica_.at(static_cast<std::size_t>(j)).at(static_cast<std::size_t>(node));
}

std::size_t Replication::slot_index(int j, int node) const
{
  std::size_t base = slot_base_.at(static_cast<std::size_t>(j));
  return dealt(j) ? base + static_cast<std::size_t>(replica(j, node)) : base;
}

sg4::Host* Replication::host(int node) const
{
  auto& cached = hosts_.at(static_cast<std::size_t>(node)); // by_name looks the name up: once per node
  if (cached != nullptr) return cached;
  const std::string& name = platform_.node_name(node);
  cached                  = sg4::Host::by_name_or_null(name);
  if (cached == nullptr) throw InputError::keyed("platform", name, "simulation: no such host in the SimGrid platform");
  return cached;
}

double Replication::flops(int node, double w) const
{
  double host_speed = host(node)->get_speed();
  double s          = platform_.speed(node);
  return host_speed == s ? w : w * host_speed / s; // keeps unedited runs bit-exact
}

int Replication::sender(int j, int k) const
{
  if (j < 0) return platform_.in();
  if (!dealt(j)) return elected(j);
  return mapping_.interval(j).replicas[static_cast<std::size_t>(k % stride(j))].front();
}

bool Replication::may_send(int j, int node) const
{
  if (dealt(j)) return true; // the only sender of its slot
  int sending = slot(j, node).sending;
  return elected(j) == node && (sending < 0 || sending == node);
}

int Replication::delivered(int j, int node) const
{
  const Slot& s = slot(j, node);
  return s.offset + s.stride * s.delivered;
}

void Replication::set_delivered(Slot& s, int count)
{
  s.delivered = count;
  // a delivered data set has left the output buffer, whoever sent it: after a handover the old sender may deliver
  // past what the new one has started (which a crash reset to the delivered count), and the new one's computer waits
  // on it
  s.started = std::max(s.started, count);
  notify_slot(static_cast<std::size_t>(&s - slots_.data()));
}

void Replication::delivered_one(int j, int node, int k)
{
  Slot& s = slot(j, node);
  if (s.offset + s.stride * s.delivered != k) return;
  set_delivered(s, s.delivered + 1);
  if (!dealt(j) && delivered(j, node) >= datasets_) notify_slot(slots_.size() + static_cast<std::size_t>(j));
}

void Replication::started_one(int j, int node, int k)
{
  Slot& s   = slot(j, node);
  s.started = (k - s.offset) / s.stride + 1;
  notify_slot(slot_index(j, node));
}

int Replication::unstarted(int j, int node, int k) const
{
  const Slot& s = slot(j, node);
  return (k - s.offset) / s.stride - s.started;
}

void Replication::begin_send(int j, int node) { slot(j, node).sending = node; }

void Replication::end_send(int j, int node)
{
  slot(j, node).sending = -1;
  if (dealt(j)) return;
  int now = elected(j);
  if (now == node || now < 0) return;
  // handover: the elected replica waits in wait_change (multi-port sender) or for a wake-up (one-port program)
  notify(j, now);
  if (settings_.model != CommModel::multi_port) wake(host(now));
}

std::vector<int> Replication::receivers(int j, int k) const
{
  if (j + 1 == m()) return {platform_.out()};
  std::vector<int> nodes;
  for (const auto& group : mapping_.interval(j + 1).replicas) {
    int v = group.front();
    if (alive(v) && processes(j + 1, v, k) && (j < 0 || !computed(j, v, k))) nodes.push_back(v);
  }
  return nodes;
}

double Replication::rate(int j, int node, int k) const
{
  auto it = rates_.find({j, sender(j - 1, k), node});
  return it == rates_.end() ? -1.0 : it->second;
}

void Replication::update_rates()
{
  rates_.clear();
  if (!allotted_) return;
  // the allotment of the current configuration: the mapping reduced to the alive replicas of its active intervals
  // (a dealt interval keeps its replicas: its dealing does not change, and a dead one has no more transfers), the
  // elected senders
  Mapping reduced = mapping_;
  std::vector<int> senders;
  for (int j = 0; j < m(); ++j) {
    auto& replicas = reduced.intervals[static_cast<std::size_t>(j)].replicas;
    senders.push_back(dealt(j) ? replicas.front().front() : elected(j));
    if (dealt(j)) continue;
    std::erase_if(replicas, [&](const ProcessorGroup& g) { return !alive(g.front()); });
    if (replicas.empty()) return; // the run has failed
  }
  OnePortPlan plan = plan_oneport(pipeline_, reduced, platform_.in(), platform_.out(), senders);
  auto times       = allotted_transfer_times(plan, platform_);
  for (std::size_t t = 0; t < plan.transfers.size(); ++t) {
    const auto& tr = plan.transfers[t];
    if (times[t] > 0) rates_[{tr.interval, tr.from, tr.to}] = tr.bytes * size_scale_ / times[t];
  }
}

void Replication::notify(int j, int node) { notify_slot(slot_index(j, node)); }

void Replication::notify_slot(std::size_t index)
{
  if (sleepers_.empty()) return;
  // release() is a simcall: other actors run meanwhile, may wait again, or kill this one (a crash of its host).
  // Entries stay listed until released, so a crash's notify wakes whoever a killed notifier did not reach.
  auto snapshot = sleepers_.at(index);
  for (auto& sleeper : snapshot)
    if (!sleeper->released) {
      sleeper->released = true;
      sleeper->sem->release();
    }
  std::erase_if(sleepers_.at(index), [](const auto& s) { return s->released; });
}

void Replication::wait_change(int j, int node, const sg4::SemaphorePtr& sem)
{
  // a semaphore per actor (created beforehand: creating one is a simcall, and a notify could slip in between the
  // caller's test and this wait): a killed actor leaves nothing to undo, unlike a condition variable's lock
  sleepers_.at(slot_index(j, node)).push_back(std::make_shared<Sleeper>(Sleeper{sem, false}));
  sem->acquire();
}

void Replication::wait_election(int j, const sg4::SemaphorePtr& sem)
{
  sleepers_.at(slots_.size() + static_cast<std::size_t>(j)).push_back(std::make_shared<Sleeper>(Sleeper{sem, false}));
  sem->acquire();
}

Election Replication::elect() const
{
  FailureConfiguration config{alive_};
  // the policies elect among active replicas (a mapping with deal takes the first alive replica)
  if (!mapping_.has_deal() && every_interval_survives(mapping_, config))
    return policy_(pipeline_, platform_, mapping_, config);
  // an interval lost every replica: the run fails unless its output was fully delivered; the others keep an alive
  // sender, or take their first alive replica (the policies need a survivor in every interval)
  Election election = first_alive_election(mapping_, config);
  for (int j = 0; j < m(); ++j)
    if (int e = elected(j); e >= 0 && alive(e)) election.sender[static_cast<std::size_t>(j)] = e;
  return election;
}

void Replication::reelect()
{
  Election election = elect();
  for (int j = 0; j < m(); ++j) {
    int before = elected(j);
    int now    = election.sender.at(static_cast<std::size_t>(j));
    if (now == before || dealt(j)) continue; // a dealt interval has no election
    elected_[static_cast<std::size_t>(j)] = now;
    Slot& s                               = slots_.at(slot_base_.at(static_cast<std::size_t>(j)));
    s.started                             = s.delivered;
    if (now < 0) continue;
    ++outcome_.elections;
    newly_elected_.emplace_back(j, now);
  }
}

bool Replication::lost_work(int u)
{
  for (int j = 0; j < m(); ++j) {
    bool lost = dealt(j)
                    ? replica(j, u) >= 0 && delivered(j, u) < datasets_ // deal: no redundancy
                    : elected(j) < 0 && slots_.at(slot_base_.at(static_cast<std::size_t>(j))).delivered < datasets_;
    if (!lost) continue;
    outcome_.verdict         = Verdict::failed;
    outcome_.failure_time    = sg4::Engine::get_clock();
    outcome_.failed_interval = j;
    finished_                = true;
    return true;
  }
  return false;
}

void Replication::mark_dead(int u)
{
  alive_.at(static_cast<std::size_t>(u)) = false;
  outcome_.crashes.push_back(Crash{platform_.node_name(u), sg4::Engine::get_clock()});
  for (Slot& s : slots_)
    if (s.sending == u) s.sending = -1; // its transfers failed (in progress) or left the mailboxes (not started)
  reelect();
  if (lost_work(u)) return;
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
  for (std::size_t i = 0; i < sleepers_.size(); ++i) // the slots, then the elections
    notify_slot(i);
  // once the state is whole: creating an actor is a simcall, and other actors run meanwhile
  auto elected = std::exchange(newly_elected_, {});
  if (on_elected_)
    for (auto [j, node] : elected)
      on_elected_(j, node);
  wake(nullptr);
}

} // namespace pipesim::detail
