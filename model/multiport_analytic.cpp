// bbr10 eq. (1) and Algorithm 1: bounded multi-port periods with overlap and active replication.
#include "model/multiport_analytic.hpp"

#include "model/allotment.hpp"
#include "model/deal.hpp"
#include "model/oneport_plan.hpp"

#include "base/input_error.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <map>
#include <utility>

namespace pipesim {

namespace {

void require_multiport_supported(const Mapping& mapping, const char* formula)
{
  if (mapping.data_parallel())
    throw InputError::keyed(first_group_key(mapping),
                            fmt::format("{}: data-parallel processor groups are not supported", formula));
  if (mapping.has_deal())
    throw InputError::keyed(
        first_deal_key(mapping), "deal",
        fmt::format("{}: deal replication is not supported (seed 004 replicates actively)", formula));
}

void require_interval(const Mapping& mapping, const char* formula)
{
  require_multiport_supported(mapping, formula);
  if (classify(mapping) == MappingRule::general)
    throw InputError::keyed("mapping", fmt::format("{} applies to interval mappings; this mapping is general "
                                                   "(a processor holds several intervals)",
                                                   formula));
}

/// alloc(d_j): the processors of interval j (one per replica).
std::vector<int> alloc(const Mapping& mapping, int j)
{
  std::vector<int> out;
  for (const auto& group : mapping.interval(j).replicas)
    out.push_back(group.front());
  return out;
}

/// A transfer occupies link src->dst for c_{src,dst} + bytes / b_{src,dst}.
double link_time(const Platform& platform, int src, int dst, double bytes)
{
  return platform.transfer_time(src, dst, bytes);
}

void check_config(const Platform& platform, const Mapping& mapping, const FailureConfiguration& config,
                  const Election& election)
{
  if (config.alive.size() != static_cast<std::size_t>(platform.p()))
    throw InputError::keyed("simulation.failures", config.alive.size(),
                            fmt::format("seed 004 Algorithm 1: a failure configuration of this many processors, for a "
                                        "platform of {}",
                                        platform.p()));
  if (election.sender.size() != static_cast<std::size_t>(mapping.m()))
    throw InputError::keyed("simulation.failures.election", election.sender.size(),
                            fmt::format("seed 004 Algorithm 1: senders elected for {} intervals", mapping.m()));
  for (int j = 0; j < mapping.m(); ++j) {
    const Interval& in = mapping.interval(j);
    int e              = election.sender[static_cast<std::size_t>(j)];
    if (e < 0)
      throw InputError::keyed(interval_key(j, "replicas"),
                              fmt::format("seed 004 Algorithm 1: stages {}-{} have no alive replica: the mapping "
                                          "failed and has no period",
                                          in.first, in.last));
    if (e >= platform.p() || !in.holds(e) || !config.is_alive(e))
      throw InputError::keyed(interval_key(j, "replicas"), e,
                              "seed 004 Algorithm 1: the elected sender (a processor index) must be an alive replica "
                              "of this interval");
  }
}

} // namespace

FailureConfiguration FailureConfiguration::all_alive(const Platform& platform)
{
  return FailureConfiguration{std::vector<bool>(static_cast<std::size_t>(platform.p()), true)};
}

double MultiportTerms::cycle_time() const
{
  // bbr10 §3.3: receiving, computing and sending overlap, so the cycle-time is the largest of the times
  return std::max({in_link, in_card, compute, out_link, out_card});
}

Election first_alive_election(const Mapping& mapping, const FailureConfiguration& config)
{
  Election election;
  for (int j = 0; j < mapping.m(); ++j) {
    int sender = -1;
    for (int u : alloc(mapping, j))
      if (config.is_alive(u)) {
        sender = u;
        break;
      }
    election.sender.push_back(sender);
  }
  return election;
}

bool every_interval_survives(const Mapping& mapping, const FailureConfiguration& config)
{
  auto senders = first_alive_election(mapping, config).sender;
  return std::none_of(senders.begin(), senders.end(), [](int e) { return e < 0; });
}

bool mapping_survives(const Mapping& mapping, const FailureConfiguration& config)
{
  for (const Interval& in : mapping.intervals) {
    auto alive = [&](const ProcessorGroup& g) {
      return std::all_of(g.begin(), g.end(), [&](int u) { return config.is_alive(u); });
    };
    bool ok = is_dealt(in) ? std::all_of(in.replicas.begin(), in.replicas.end(), alive)
                           : std::any_of(in.replicas.begin(), in.replicas.end(), alive);
    if (!ok) return false;
  }
  return true;
}

MultiportTerms bbr10_eq1_terms(const Pipeline& pipeline, const Platform& platform, const Mapping& mapping, int j, int u)
{
  require_interval(mapping, "seed 004 eq. (1)");
  if (j < 0 || j >= mapping.m() || !mapping.interval(j).holds(u))
    throw InputError::keyed(interval_key(j), u, "seed 004 eq. (1): this processor index does not hold the interval");
  const Interval& in     = mapping.interval(j);
  const Processor& pu    = platform.processor(u);
  std::vector<int> preds = j == 0 ? std::vector<int>{platform.in()} : alloc(mapping, j - 1);
  std::vector<int> succs = j + 1 == mapping.m() ? std::vector<int>{platform.out()} : alloc(mapping, j + 1);
  double delta_in        = pipeline.data(in.first - 1);
  double delta_out       = pipeline.data(in.last);
  MultiportTerms t;
  // bbr10 eq. (1): delta_{d_j-1} / min_v min(b_{v,u}, Bin_u) = max(max_v delta / b_{v,u}, delta / Bin_u);
  // the latency joins the link part
  double in_latency = 0; // bytes cannot flow before the latency: a card term waits for its transfer's c too
  for (int v : preds) {
    t.in_link  = std::max(t.in_link, link_time(platform, v, u, delta_in));
    in_latency = std::max(in_latency, platform.latency(v, u));
  }
  t.in_card = in_latency + delta_in / pu.nic_in;
  // bbr10 eq. (1): sum_{i=d_j}^{e_j} w_i / s_u
  t.compute = pipeline.work(in.first, in.last) / pu.speed;
  // bbr10 eq. (1): delta_{e_j} / min_v b_{u,v} and |alloc(d_j+1)| delta_{e_j} / Bout_u
  double out_latency = 0;
  for (int v : succs) {
    t.out_link  = std::max(t.out_link, link_time(platform, u, v, delta_out));
    out_latency = std::max(out_latency, platform.latency(u, v));
  }
  t.out_card = out_latency + static_cast<double>(succs.size()) * delta_out / pu.nic_out;
  return t;
}

double bbr10_eq1_cycle_time(const Pipeline& pipeline, const Platform& platform, const Mapping& mapping, int j, int u)
{
  return bbr10_eq1_terms(pipeline, platform, mapping, j, u).cycle_time();
}

double bbr10_eq1_period(const Pipeline& pipeline, const Platform& platform, const Mapping& mapping)
{
  require_interval(mapping, "seed 004 eq. (1)");
  double period = 0;
  for (int j = 0; j < mapping.m(); ++j) // bbr10 eq. (1): max over j, then over u in alloc(d_j)
    for (int u : alloc(mapping, j))
      period = std::max(period, bbr10_eq1_cycle_time(pipeline, platform, mapping, j, u));
  return period;
}

std::vector<MultiportTerms> bbr10_cycle_time_terms(const Pipeline& pipeline, const Platform& platform,
                                                   const Mapping& mapping, const FailureConfiguration& config,
                                                   const Election& election)
{
  require_multiport_supported(mapping, "seed 004 Algorithm 1");
  check_config(platform, mapping, config, election);
  std::vector<MultiportTerms> terms(static_cast<std::size_t>(platform.p()));
  auto at = [&](int u) -> MultiportTerms& { return terms[static_cast<std::size_t>(u)]; };
  // Transfers of one data set run concurrently and each pays its latency before its bytes flow, so a resource r
  // (pair link, card) serves its load L_r in max_{t through r} c_t + L_r / C_r (the allotted allocation).
  std::map<std::pair<int, int>, double> link_bytes;
  std::vector<double> in_latency(static_cast<std::size_t>(platform.p()), 0.0), out_latency = in_latency;
  auto transfer = [&](int src, int dst, double bytes) {
    link_bytes[{src, dst}] += bytes;
    if (src < platform.p()) { // P_in and P_out have no card (DESIGN.md §3.3)
      at(src).out_card += bytes;
      out_latency[static_cast<std::size_t>(src)] =
          std::max(out_latency[static_cast<std::size_t>(src)], platform.latency(src, dst));
    }
    if (dst < platform.p()) {
      at(dst).in_card += bytes;
      in_latency[static_cast<std::size_t>(dst)] =
          std::max(in_latency[static_cast<std::size_t>(dst)], platform.latency(src, dst));
    }
  };
  for (int j = 0; j < mapping.m(); ++j) {
    const Interval& in = mapping.interval(j);
    for (int u : alloc(mapping, j)) {
      if (!config.is_alive(u)) continue;
      // Algorithm 1 load_u: the CPU is shared by every stage u holds
      at(u).compute += pipeline.work(in.first, in.last);
      // Algorithm 1 recv_u / comm^i_{v,u}: u receives I_j's input unless it holds I_{j-1} and computed it itself
      if (j == 0)
        transfer(platform.in(), u, pipeline.data(0));
      else if (!mapping.interval(j - 1).holds(u))
        transfer(election.sender[static_cast<std::size_t>(j - 1)], u, pipeline.data(in.first - 1));
    }
  }
  // Algorithm 1 sent_u / comm^o_{u,v} for the last interval (the others are the receptions above)
  transfer(election.sender.back(), platform.out(), pipeline.data(pipeline.n()));
  for (const auto& [pair, bytes] : link_bytes) {
    double time = link_time(platform, pair.first, pair.second, bytes); // c once: its transfers run concurrently
    if (pair.first < platform.p()) at(pair.first).out_link = std::max(at(pair.first).out_link, time);
    if (pair.second < platform.p()) at(pair.second).in_link = std::max(at(pair.second).in_link, time);
  }
  for (int u = 0; u < platform.p(); ++u) {
    const Processor& pu = platform.processor(u);
    at(u).compute /= pu.speed;
    at(u).in_card  = in_latency[static_cast<std::size_t>(u)] + at(u).in_card / pu.nic_in;
    at(u).out_card = out_latency[static_cast<std::size_t>(u)] + at(u).out_card / pu.nic_out;
  }
  return terms;
}

double bbr10_cycle_time(const Pipeline& pipeline, const Platform& platform, const Mapping& mapping,
                        const FailureConfiguration& config, const Election& election, int u)
{
  if (u < 0 || u >= platform.p())
    throw InputError::keyed(
        "mapping", u,
        fmt::format("seed 004 Algorithm 1: not a processor index of the platform (0..{})", platform.p() - 1));
  return bbr10_cycle_time_terms(pipeline, platform, mapping, config, election)[static_cast<std::size_t>(u)]
      .cycle_time();
}

double bbr10_period(const Pipeline& pipeline, const Platform& platform, const Mapping& mapping,
                    const FailureConfiguration& config, const Election& election)
{
  double period = 0;
  for (const auto& t : bbr10_cycle_time_terms(pipeline, platform, mapping, config, election))
    period = std::max(period, t.cycle_time()); // bbr10 §6.1: the largest cycle-time of a surviving processor
  return period;
}

double bbr10_interval_period_all_alive(const Pipeline& pipeline, const Platform& platform, const Mapping& mapping)
{
  require_interval(mapping, "multi-port period without failures");
  auto config = FailureConfiguration::all_alive(platform);
  return bbr10_period(pipeline, platform, mapping, config, first_alive_election(mapping, config));
}

double multiport_latency(const Pipeline& pipeline, const Platform& platform, const Mapping& mapping)
{
  require_multiport_supported(mapping, "multi-port latency");
  OnePortPlan plan = plan_oneport(pipeline, mapping, platform.in(), platform.out());
  auto times       = allotted_transfer_times(plan, platform);
  auto arrival     = [&](int t, double sent) {
    const auto& tr = plan.transfers[static_cast<std::size_t>(t)];
    return sent + platform.latency(tr.from, tr.to) + times[static_cast<std::size_t>(t)];
  };
  std::map<std::pair<int, int>, double> done; // (interval, processor) -> end of its computation of data set 0
  for (int j = 0; j < mapping.m(); ++j) {
    const Interval& in = mapping.interval(j);
    for (const auto& group : in.replicas) {
      int u        = group.front();
      double ready = 0; // local input: the processor's own computation of I_{j-1}
      if (j > 0 && mapping.interval(j - 1).holds(u)) ready = done.at({j - 1, u});
      for (std::size_t t = 0; t < plan.transfers.size(); ++t)
        if (plan.transfers[t].interval == j && plan.transfers[t].to == u)
          ready = arrival(static_cast<int>(t),
                          j == 0 ? 0.0 : done.at({j - 1, plan.transfers[t].from})); // elected sender's output
      done[{j, u}] = ready + pipeline.work(in.first, in.last) / platform.speed(u);
    }
  }
  const int delivery = plan.to_out.front();
  const auto& last   = plan.transfers[static_cast<std::size_t>(delivery)];
  return arrival(delivery, done.at({mapping.m() - 1, last.from}));
}
} // namespace pipesim
