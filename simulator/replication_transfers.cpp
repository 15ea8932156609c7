// Transfers of a replicated run: waiting with crash wake-ups, receiving and sending a data set, link failures.
#include "simulator/replication.hpp"

#include "simulator/engine_reuse.hpp"

#include <fmt/format.h>
#include <simgrid/Exception.hpp>
#include <stdexcept>
#include <xbt/config.hpp>

namespace sg4 = simgrid::s4u;

namespace pipesim::detail {

Replication::Waiter* Replication::waiter(sg4::Host* host)
{
  if (!failures_possible_) return nullptr;
  // by_name is a simcall (other actors run meanwhile): take the slot first
  waiters_.push_back(std::make_unique<Waiter>());
  Waiter* w  = waiters_.back().get();
  w->host    = host;
  w->control = sg4::Mailbox::by_name(fmt::format("pipesim-control-{}", waiters_.size() - 1));
  note_mailbox(w->control, host); // crash wake-ups: 0-byte detached messages from its own host
  return w;
}

long Replication::wait_any(Waiter* w, const std::vector<sg4::CommPtr>& comms)
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
    outcome_.verdict         = Verdict::failed;
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
  sg4::Mailbox* mb = mailbox(j, node, k);
  for (;;) {
    int* data      = nullptr;
    sg4::CommPtr c = mb->get_init()->set_dst_data(reinterpret_cast<void**>(&data), sizeof(void*));
    // the rate cap goes on both sides: SimGrid keeps the settings of whichever side created the communication
    if (double r = rate(j, node, k); r > 0) c->set_rate(r);
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

sg4::CommPtr Replication::post(int j, int dest, int k)
{
  sg4::CommPtr c = mailbox(j + 1, dest, k)->put_init(&ids_[static_cast<std::size_t>(k)], bytes(j + 1, k));
  if (double r = rate(j + 1, dest, k); r > 0) c->set_rate(r);
  c->start();
  return c;
}

void Replication::drop_ended(std::vector<Outgoing>& outs, int k, const Record& record)
{
  std::erase_if(outs, [&](Outgoing& o) {
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
}

bool Replication::drop_after_crash(std::vector<Outgoing>& outs, int j, int k, bool give_up)
{
  // Unmatched transfers to crashed receivers are cancelled (nothing will ever match them).
  bool gave_up = false;
  for (auto& o : outs) {
    bool unmatched = !mailbox(j + 1, o.dest, k)->empty();
    if (!alive(o.dest) || (unmatched && give_up)) {
      if (unmatched) o.comm->cancel();
      gave_up = gave_up || alive(o.dest);
      o.dest  = -1;
    } else if (unmatched && allotted_) { // the allotment changed with the configuration
      o.comm->cancel();
      o.comm = post(j, o.dest, k);
    }
  }
  std::erase_if(outs, [](const Outgoing& o) { return o.dest < 0; });
  return gave_up;
}

void Replication::finish_matched(std::vector<Outgoing>& outs, int k, const Record& record)
{
  for (auto& o : outs) { // matched transfers still run to their end
    try {
      o.comm->wait();
      record(o.comm->get_start_time(), sg4::Engine::get_clock(), k);
      continue;
    } catch (const simgrid::NetworkFailureException&) {
    }
    check_link_failure(o.comm);
  }
}

bool Replication::send(Waiter* w, int j, std::span<const int> dests, int k, const std::function<bool()>& interrupt,
                       const Record& record)
{
  if (w == nullptr && dests.size() == 1) { // no failure model: one transfer, nothing can interrupt it
    if (!alive(dests.front())) return true;
    const std::vector<sg4::CommPtr> one{post(j, dests.front(), k)};
    if (wait_any(nullptr, one) == 0) record(one.front()->get_start_time(), sg4::Engine::get_clock(), k);
    return true;
  }
  std::vector<Outgoing> outs;
  for (int dest : dests)
    if (alive(dest)) outs.push_back({dest, post(j, dest, k)});
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
      drop_ended(outs, k, record);
      continue;
    }
    // woken: a crash
    if (drop_after_crash(outs, j, k, interrupt && interrupt())) {
      finish_matched(outs, k, record);
      return false;
    }
  }
  return true;
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

} // namespace pipesim::detail
