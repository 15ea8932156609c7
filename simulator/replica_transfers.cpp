// Receiving and sending a data set at a station of a replicated run (replica_transfers.hpp).
#include "simulator/replica_transfers.hpp"

#include <fmt/format.h>
#include <simgrid/Exception.hpp>
#include <stdexcept>

namespace sg4 = simgrid::s4u;

namespace pipesim::detail {

void ReplicaTransfers::receive(Waiter* w, int j, int node, int k, const std::function<void()>& on_wake,
                               const Record& record)
{
  sg4::Mailbox* mb = layout_.mailbox(j, node, k);
  for (;;) {
    int* data      = nullptr;
    sg4::CommPtr c = mb->get_init()->set_dst_data(reinterpret_cast<void**>(&data), sizeof(void*));
    // the rate cap goes on both sides: SimGrid keeps the settings of whichever side created the communication
    if (double r = config_.rate(j, node, k); r > 0) c->set_rate(r);
    c->start();
    long i = waits_.wait_any(w, {c});
    while (i == CrashWaits::woken && mb->empty()) // matched: the transfer runs to its end (or fails)
      i = waits_.wait_any(w, {c});
    if (i ==
        CrashWaits::woken) { // still unmatched: give the caller a chance to act, then post again (the rate may change)
      c->cancel();
      if (on_wake) on_wake();
      continue;
    }
    if (i == CrashWaits::failed) continue; // the sender crashed during the transfer: the next elected sends again
    if (data == nullptr) throw std::logic_error("receive without payload");
    record(c->get_start_time(), sg4::Engine::get_clock(), *data);
    if (*data == k) return;
    if (*data < k) {
      ++record_.outcome.duplicates;
      continue;
    }
    throw std::logic_error(fmt::format("station I{} on {}: expected data set {}, got {}", j + 1,
                                       layout_.platform().node_name(node), k, *data));
  }
}

sg4::CommPtr ReplicaTransfers::post(int j, int dest, int k)
{
  sg4::CommPtr c = layout_.mailbox(j + 1, dest, k)->put_init(layout_.payload(k), layout_.bytes(j + 1, k));
  if (double r = config_.rate(j + 1, dest, k); r > 0) c->set_rate(r);
  c->start();
  return c;
}

void ReplicaTransfers::drop_ended(std::vector<Outgoing>& outs, int k, const Record& record)
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
    waits_.check_link_failure(o.comm); // a crashed receiver's transfer, or a link failure: then the run ends here
    return true;
  });
}

bool ReplicaTransfers::drop_after_crash(std::vector<Outgoing>& outs, int j, int k, bool give_up)
{
  // Unmatched transfers to crashed receivers are cancelled (nothing will ever match them).
  bool gave_up = false;
  for (auto& o : outs) {
    bool unmatched = !layout_.mailbox(j + 1, o.dest, k)->empty();
    if (!config_.alive(o.dest) || (unmatched && give_up)) {
      if (unmatched) o.comm->cancel();
      gave_up = gave_up || config_.alive(o.dest);
      o.dest  = -1;
    } else if (unmatched && config_.allotted()) { // the allotment changed with the configuration
      o.comm->cancel();
      o.comm = post(j, o.dest, k);
    }
  }
  std::erase_if(outs, [](const Outgoing& o) { return o.dest < 0; });
  return gave_up;
}

void ReplicaTransfers::finish_matched(std::vector<Outgoing>& outs, int k, const Record& record)
{
  for (auto& o : outs) { // matched transfers still run to their end
    try {
      o.comm->wait();
      record(o.comm->get_start_time(), sg4::Engine::get_clock(), k);
      continue;
    } catch (const simgrid::NetworkFailureException&) {
    }
    waits_.check_link_failure(o.comm);
  }
}

void ReplicaTransfers::wait_if_silent(int dest) const
{
  // fail-silent (DESIGN.md §3.5): the sender does not learn that its receiver crashed, its transfer hangs; the
  // controller ends the segment (and kills this actor) once it detects the crash. A semaphore, not a suspension:
  // SimGrid 3.32 schedules a suspended actor twice when a peer ends its transfer (docs/dynamic.md).
  if (!silent_crashes_ || layout_.host(dest)->is_on()) return;
  sg4::Semaphore::create(0)->acquire();
}

bool ReplicaTransfers::send(Waiter* w, int j, std::span<const int> dests, int k, const std::function<bool()>& interrupt,
                            const Record& record)
{
  if (w == nullptr && dests.size() == 1) { // no failure model: one transfer, nothing can interrupt it
    if (!config_.alive(dests.front())) return true;
    const std::vector<sg4::CommPtr> one{post(j, dests.front(), k)};
    if (waits_.wait_any(nullptr, one) == 0)
      record(one.front()->get_start_time(), sg4::Engine::get_clock(), k);
    else
      wait_if_silent(dests.front());
    return true;
  }
  std::vector<Outgoing> outs;
  for (int dest : dests)
    if (config_.alive(dest)) outs.push_back({dest, post(j, dest, k)});
  while (!outs.empty()) {
    std::vector<sg4::CommPtr> comms;
    for (const auto& o : outs)
      comms.push_back(o.comm);
    long i = waits_.wait_any(w, comms);
    if (i >= 0) {
      record(outs[static_cast<std::size_t>(i)].comm->get_start_time(), sg4::Engine::get_clock(), k);
      outs.erase(outs.begin() + i);
      continue;
    }
    if (i == CrashWaits::failed) { // a receiver crashed during its transfer; the others may have completed meanwhile
      for (const auto& o : outs)
        if (o.comm->get_state() == sg4::Activity::State::FAILED) wait_if_silent(o.dest);
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

} // namespace pipesim::detail
