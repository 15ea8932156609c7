// The configuration of a replicated run: alive processors, elections, sender slots, allotted rates (the header).
#include "simulator/replica_configuration.hpp"

#include "base/input_error.hpp"
#include "model/allotment.hpp"
#include "model/bbr10/election_table.hpp"
#include "model/multiport_analytic.hpp"
#include "model/oneport_plan.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <utility>

namespace sg4 = simgrid::s4u;

namespace pipesim::detail {

ReplicaConfiguration::ReplicaConfiguration(const Pipeline& pipeline, const SimulationSettings& settings,
                                           const ReplicaLayout& layout, CrashWaits& waits, RunRecord& record,
                                           double size_scale, bool allotted)
    : pipeline_(pipeline), platform_(layout.platform()), mapping_(layout.mapping()), settings_(settings),
      layout_(layout), waits_(waits), record_(record), size_scale_(size_scale), allotted_(allotted)
{
  const ElectionPolicy election = settings.failures.election;
  if (mapping_.has_deal() && election != ElectionPolicy::first && election != ElectionPolicy::first_alive)
    throw InputError::keyed("simulation.failures.election", election,
                            fmt::format("this policy elects among active replicas only (seed 004), and {} deals its "
                                        "data sets (replication: deal); use 'first'",
                                        first_deal_key(mapping_)));
  policy_                  = bbr10_election(election, settings.seed);
  record_.outcome.election = election;
  alive_.assign(static_cast<std::size_t>(platform_.p()), true);
  elected_.assign(static_cast<std::size_t>(layout_.m()), -1);
  elected_ = elect().sender; // here, so that a policy's InputError (exhaustive: too many elections) comes first
  make_slots();
}

void ReplicaConfiguration::make_slots()
{
  for (int j = 0; j < layout_.m(); ++j) {
    slot_base_.push_back(slots_.size());
    for (int r = 0; r < (layout_.dealt(j) ? layout_.stride(j) : 1); ++r)
      slots_.push_back(Slot{r, layout_.stride(j), 0, 0, -1});
  }
}

std::size_t ReplicaConfiguration::slot_index(int j, int node) const
{
  std::size_t base = slot_base_.at(static_cast<std::size_t>(j));
  return layout_.dealt(j) ? base + static_cast<std::size_t>(layout_.replica(j, node)) : base;
}

int ReplicaConfiguration::sender(int j, int k) const
{
  if (j < 0) return platform_.in();
  if (!layout_.dealt(j)) return elected(j);
  return layout_.dealt_sender(j, k);
}

bool ReplicaConfiguration::may_send(int j, int node) const
{
  if (layout_.dealt(j)) return true; // the only sender of its slot
  int sending = slot(j, node).sending;
  return elected(j) == node && (sending < 0 || sending == node);
}

int ReplicaConfiguration::delivered(int j, int node) const
{
  const Slot& s = slot(j, node);
  return s.offset + s.stride * s.delivered;
}

void ReplicaConfiguration::set_delivered(Slot& s, int count)
{
  s.delivered = count;
  // a delivered data set has left the output buffer, whoever sent it: after a handover the old sender may deliver
  // past what the new one has started (which a crash reset to the delivered count), and the new one's computer waits
  // on it
  s.started = std::max(s.started, count);
  waits_.notify(static_cast<std::size_t>(&s - slots_.data()));
}

void ReplicaConfiguration::delivered_one(int j, int node, int k)
{
  Slot& s = slot(j, node);
  if (s.offset + s.stride * s.delivered != k) return;
  set_delivered(s, s.delivered + 1);
  if (!layout_.dealt(j) && delivered(j, node) >= layout_.datasets())
    waits_.notify(slots_.size() + static_cast<std::size_t>(j));
}

void ReplicaConfiguration::started_one(int j, int node, int k)
{
  Slot& s   = slot(j, node);
  s.started = (k - s.offset) / s.stride + 1;
  waits_.notify(slot_index(j, node));
}

int ReplicaConfiguration::unstarted(int j, int node, int k) const
{
  const Slot& s = slot(j, node);
  return (k - s.offset) / s.stride - s.started;
}

void ReplicaConfiguration::begin_send(int j, int node) { slot(j, node).sending = node; }

void ReplicaConfiguration::end_send(int j, int node)
{
  slot(j, node).sending = -1;
  if (layout_.dealt(j)) return;
  int now = elected(j);
  if (now == node || now < 0) return;
  // handover: the elected replica waits in wait_change (multi-port sender) or for a wake-up (one-port program)
  notify(j, now);
  if (settings_.model != CommModel::multi_port) waits_.wake(layout_.host(now));
}

std::vector<int> ReplicaConfiguration::receivers(int j, int k) const
{
  if (j + 1 == layout_.m()) return {platform_.out()};
  std::vector<int> nodes;
  for (const auto& group : mapping_.interval(j + 1).replicas) {
    int v = group.front();
    if (alive(v) && layout_.processes(j + 1, v, k) && (j < 0 || !layout_.computed(j, v, k))) nodes.push_back(v);
  }
  return nodes;
}

double ReplicaConfiguration::rate(int j, int node, int k) const
{
  auto it = rates_.find({j, sender(j - 1, k), node});
  return it == rates_.end() ? -1.0 : it->second;
}

void ReplicaConfiguration::update_rates()
{
  rates_.clear();
  if (!allotted_) return;
  // the allotment of the current configuration: the mapping reduced to the alive replicas of its active intervals
  // (a dealt interval keeps its replicas: its dealing does not change, and a dead one has no more transfers), the
  // elected senders
  Mapping reduced = mapping_;
  std::vector<int> senders;
  for (int j = 0; j < layout_.m(); ++j) {
    auto& replicas = reduced.intervals[static_cast<std::size_t>(j)].replicas;
    senders.push_back(layout_.dealt(j) ? replicas.front().front() : elected(j));
    if (layout_.dealt(j)) continue;
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

void ReplicaConfiguration::notify(int j, int node) { waits_.notify(slot_index(j, node)); }

void ReplicaConfiguration::wait_change(int j, int node, const sg4::SemaphorePtr& sem)
{
  waits_.wait(slot_index(j, node), sem);
}

void ReplicaConfiguration::wait_election(int j, const sg4::SemaphorePtr& sem)
{
  waits_.wait(slots_.size() + static_cast<std::size_t>(j), sem);
}

Election ReplicaConfiguration::elect() const
{
  FailureConfiguration config{alive_};
  // the policies elect among active replicas (a mapping with deal takes the first alive replica)
  if (!mapping_.has_deal() && every_interval_survives(mapping_, config))
    return policy_(pipeline_, platform_, mapping_, config);
  // an interval lost every replica: the run fails unless its output was fully delivered; the others keep an alive
  // sender, or take their first alive replica (the policies need a survivor in every interval)
  Election election = first_alive_election(mapping_, config);
  for (int j = 0; j < layout_.m(); ++j)
    if (int e = elected(j); e >= 0 && alive(e)) election.sender[static_cast<std::size_t>(j)] = e;
  return election;
}

void ReplicaConfiguration::reelect()
{
  Election election = elect();
  for (int j = 0; j < layout_.m(); ++j) {
    int before = elected(j);
    int now    = election.sender.at(static_cast<std::size_t>(j));
    if (now == before || layout_.dealt(j)) continue; // a dealt interval has no election
    elected_[static_cast<std::size_t>(j)] = now;
    Slot& s                               = slots_.at(slot_base_.at(static_cast<std::size_t>(j)));
    s.started                             = s.delivered;
    if (now < 0) continue;
    ++record_.outcome.elections;
    newly_elected_.emplace_back(j, now);
  }
}

bool ReplicaConfiguration::lost_work(int u)
{
  const int n = layout_.datasets();
  for (int j = 0; j < layout_.m(); ++j) {
    bool lost = layout_.dealt(j)
                    ? layout_.replica(j, u) >= 0 && delivered(j, u) < n // deal: no redundancy
                    : elected(j) < 0 && slots_.at(slot_base_.at(static_cast<std::size_t>(j))).delivered < n;
    if (!lost) continue;
    record_.fail(j, sg4::Engine::get_clock());
    return true;
  }
  return false;
}

void ReplicaConfiguration::mark_dead(int u)
{
  alive_.at(static_cast<std::size_t>(u)) = false;
  record_.outcome.crashes.push_back(Crash{platform_.node_name(u), sg4::Engine::get_clock()});
  for (Slot& s : slots_)
    if (s.sending == u) s.sending = -1; // its transfers failed (in progress) or left the mailboxes (not started)
  reelect();
  if (lost_work(u)) return;
  update_rates();
}

void ReplicaConfiguration::announce_elected()
{
  auto elected = std::exchange(newly_elected_, {});
  if (on_elected_)
    for (auto [j, node] : elected)
      on_elected_(j, node);
}

} // namespace pipesim::detail
