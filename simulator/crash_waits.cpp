// Waiting with crash wake-ups, and the link failures a failed wait reveals (crash_waits.hpp).
#include "simulator/crash_waits.hpp"

#include "simulator/engine_reuse.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <map>
#include <simgrid/Exception.hpp>
#include <xbt/config.hpp>

namespace sg4 = simgrid::s4u;

namespace pipesim::detail {

CrashWaits::CrashWaits(const ReplicaLayout& layout, RunRecord& record, bool failures_possible)
    : layout_(layout), record_(record), failures_possible_(failures_possible)
{
}

CrashWaits::Waiter* CrashWaits::waiter(sg4::Host* host)
{
  if (!failures_possible_) return nullptr;
  // by_name is a simcall (other actors run meanwhile): take the slot first
  waiters_.push_back(std::make_unique<Waiter>());
  Waiter* w  = waiters_.back().get();
  w->host    = host;
  w->control = sg4::Mailbox::by_name(fmt::format("pipesim-control-{}{}", layout_.tag(), waiters_.size() - 1));
  note_mailbox(w->control, host); // crash wake-ups: 0-byte detached messages from its own host
  return w;
}

long CrashWaits::wait_any(Waiter* w, const std::vector<sg4::CommPtr>& comms)
{
  // No failure model: nothing to be woken by, the comms as they are. Comm::wait() would cost more than wait_any:
  // SimGrid 3.32 gives every wait a sleep action on the caller's CPU, to see its host fail.
  const bool plain = w == nullptr;
  std::vector<sg4::CommPtr> with_control; // the comms, then the control mailbox's receive (a crash wakes it)
  if (!plain) {
    with_control = comms;
    if (!w->pending) w->pending = w->control->get_async<int>(&w->slot);
    with_control.push_back(w->pending);
  }
  try {
    auto i = static_cast<long>(sg4::Comm::wait_any(plain ? comms : with_control));
    if (!plain && i == static_cast<long>(comms.size())) {
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

void CrashWaits::check_link_failure(const sg4::CommPtr& c)
{
  // a station's transfer: its hosts are known once it started (a transfer that never started has no route)
  const int station = layout_.station_interval(c->get_mailbox());
  if (station < 0 || c->get_source() == nullptr || c->get_destination() == nullptr) return;
  // SimGrid 3.32 fails a transfer whose route (and, with cross traffic, way back) crosses an off link
  // (NetworkCm02Model::comm_get_route_info); a peer's crash fails it too, but then the route is up
  std::string link = off_link(c->get_source(), c->get_destination());
  if (link.empty() && simgrid::config::get_value<bool>("network/crosstraffic"))
    link = off_link(c->get_destination(), c->get_source());
  if (link.empty()) return;
  if (!record_.finished) {
    record_.fail(std::max(station - 1, 0), sg4::Engine::get_clock()); // the sending interval; P_in's count for I_1
    record_.outcome.failed_link = link;
    sg4::Actor::kill_all();
  }
  sg4::this_actor::exit();
}

void CrashWaits::wake(sg4::Host* only)
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

void CrashWaits::notify(std::size_t index)
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

void CrashWaits::wait(std::size_t index, const sg4::SemaphorePtr& sem)
{
  // a semaphore per actor (created beforehand: creating one is a simcall, and a notify could slip in between the
  // caller's test and this wait): a killed actor leaves nothing to undo, unlike a condition variable's lock
  sleepers_.at(index).push_back(std::make_shared<Sleeper>(Sleeper{sem, false}));
  sem->acquire();
}

} // namespace pipesim::detail
