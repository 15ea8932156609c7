// The structure of a replicated run: replicas, dealing, mailboxes, hosts, amounts.
#include "simulator/replica_layout.hpp"

#include "base/input_error.hpp"
#include "model/deal.hpp"
#include "simulator/engine_reuse.hpp"

#include <fmt/format.h>
#include <simgrid/s4u.hpp>
#include <stdexcept>

namespace sg4 = simgrid::s4u;

namespace pipesim::detail {

ReplicaLayout::ReplicaLayout(const Platform& platform, const Mapping& mapping, int datasets,
                             const IntervalAmounts& amounts)
    : platform_(platform), mapping_(mapping), amounts_(amounts), datasets_(datasets), window_(deal_round(mapping))
{
  if (mapping.data_parallel())
    throw InputError::keyed(first_group_key(mapping), "simulation: data-parallel processor groups are not supported "
                                                      "yet");
  hosts_.assign(static_cast<std::size_t>(platform.nodes()), nullptr);
  for (int j = 0; j < m(); ++j) {
    dealt_.push_back(is_dealt(mapping.interval(j)));
    replica_.emplace_back(static_cast<std::size_t>(platform.nodes()), -1);
    const auto& replicas = mapping.interval(j).replicas;
    for (std::size_t r = 0; r < replicas.size(); ++r)
      replica_.back().at(static_cast<std::size_t>(replicas[r].front())) = static_cast<int>(r);
  }
}

sg4::Host* ReplicaLayout::host(int node) const
{
  auto& cached = hosts_.at(static_cast<std::size_t>(node)); // by_name looks the name up: once per node
  if (cached != nullptr) return cached;
  const std::string& name = platform_.node_name(node);
  cached                  = sg4::Host::by_name_or_null(name);
  if (cached == nullptr) throw InputError::keyed("platform", name, "simulation: no such host in the SimGrid platform");
  return cached;
}

int* ReplicaLayout::payload(int k)
{
  if (k < 0 || k >= datasets_) throw std::out_of_range(fmt::format("payload of data set {} of {}", k, datasets_));
  // filled as the data sets are sent: a run with `precision` may stop long before max_datasets
  for (auto next = static_cast<int>(ids_.size()); next <= k; ++next)
    ids_.push_back(next);
  return &ids_[static_cast<std::size_t>(k)];
}

double ReplicaLayout::flops(int node, double w) const
{
  double host_speed = host(node)->get_speed();
  double s          = platform_.speed(node);
  return host_speed == s ? w : w * host_speed / s; // keeps unedited runs bit-exact
}

sg4::Mailbox* ReplicaLayout::mailbox(int j, int node, int k) const
{
  if (j > 0 && dealt(j - 1)) return sender_mailboxes_.at({j, node, dealt_sender(j - 1, k)});
  return mailboxes_.at({j, node});
}

int ReplicaLayout::station_interval(const sg4::Mailbox* mailbox) const
{
  auto it = station_interval_.find(mailbox);
  return it == station_interval_.end() ? -1 : it->second;
}

void ReplicaLayout::make_mailboxes()
{
  auto create = [&](int j, int node) {
    if (j == 0 || !dealt(j - 1)) {
      auto* mb              = sg4::Mailbox::by_name(fmt::format("pipesim-{}{}-{}", tag_, j, node));
      mailboxes_[{j, node}] = mb;
      note_mailbox(mb);
      station_interval_[mb] = j;
      return;
    }
    for (const auto& from : mapping_.interval(j - 1).replicas) { // one per sender: I_{j-1} is dealt
      auto* mb = sg4::Mailbox::by_name(fmt::format("pipesim-{}{}-{}-from-{}", tag_, j, node, from.front()));
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

} // namespace pipesim::detail
