// Who processes, sends and receives each data set under deal replication.
#include "model/deal.hpp"

#include "base/input_error.hpp"

#include <fmt/format.h>
#include <numeric>

namespace pipesim {

bool is_dealt(const Interval& in) { return in.replication == Replication::deal && in.replicas.size() > 1; }

int deal_round(const Mapping& mapping)
{
  long long l = 1;
  for (int j = 0; j < mapping.m(); ++j) {
    const Interval& in = mapping.interval(j);
    if (!is_dealt(in)) continue;
    l = std::lcm(l, static_cast<long long>(in.replicas.size()));
    if (l > max_deal_round)
      throw InputError::keyed(interval_key(j, "replicas"), in.replicas.size(),
                              fmt::format("deal replication: the replica counts of the dealt intervals up to this one "
                                          "have a least common multiple of {}, above the limit of {}: the event graph "
                                          "unrolls that many data sets",
                                          l, max_deal_round));
  }
  return static_cast<int>(l);
}

std::vector<int> processing_replicas(const Interval& in, int k)
{
  if (is_dealt(in)) return {k % static_cast<int>(in.replicas.size())};
  std::vector<int> all(in.replicas.size());
  std::iota(all.begin(), all.end(), 0);
  return all;
}

bool processes(const Interval& in, int replica, int k)
{
  return !is_dealt(in) || k % static_cast<int>(in.replicas.size()) == replica;
}

int replica_of(const Interval& in, int u)
{
  for (std::size_t r = 0; r < in.replicas.size(); ++r)
    if (in.replicas[r].front() == u) return static_cast<int>(r);
  return -1;
}

int sending_replica(const Interval& in, int k, int elected)
{
  if (is_dealt(in)) return k % static_cast<int>(in.replicas.size());
  int r = elected < 0 ? 0 : replica_of(in, elected);
  return r < 0 ? 0 : r;
}

} // namespace pipesim
