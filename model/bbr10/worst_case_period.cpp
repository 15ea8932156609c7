// Worst-case period of a replicated mapping: every surviving failure configuration, the best election in each.
#include "model/bbr10/worst_case_period.hpp"

#include "base/input_error.hpp"
#include "model/bbr10/best.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <map>

namespace pipesim {

WorstCasePeriod bbr10_worst_case_period(const Pipeline& pipeline, const Platform& platform, const Mapping& mapping,
                                        const WorstCaseOptions& options)
{
  std::vector<int> used = mapping.processors();
  int k                 = static_cast<int>(used.size());
  if (k > options.max_processors || k > 62) {
    WorstCasePeriod bound;
    bound.period     = bbr10_worst_case_upper_bound(pipeline, platform, mapping);
    bound.exact      = classify(mapping) != MappingRule::general; // eq. (1)
    bound.enumerated = false;
    return bound;
  }
  ElectionFunction elect = options.elect;
  if (!elect)
    elect = [seed = options.seed](const Pipeline& pl, const Platform& pf, const Mapping& mp,
                                  const FailureConfiguration& c) {
      return bbr10_best_election(pl, pf, mp, c, seed).election;
    };
  WorstCasePeriod worst;
  worst.exact  = options.elect_is_exact;
  auto config  = FailureConfiguration::all_alive(platform);
  auto configs = std::uint64_t{1} << k;
  for (std::uint64_t mask = configs; mask-- > 0;) { // bit i set: used[i] alive; all alive first
    for (int i = 0; i < k; ++i)
      config.alive[static_cast<std::size_t>(used[static_cast<std::size_t>(i)])] = ((mask >> i) & 1U) != 0;
    if (!every_interval_survives(mapping, config)) continue; // eq. (2) counts it as a failure: no period
    ++worst.configurations;
    Election election = elect(pipeline, platform, mapping, config);
    double period     = bbr10_period(pipeline, platform, mapping, config, election);
    if (worst.configurations == 1 || period > worst.period) {
      worst.period   = period;
      worst.config   = config;
      worst.election = std::move(election);
    }
  }
  return worst;
}

double bbr10_worst_case_upper_bound(const Pipeline& pipeline, const Platform& platform, const Mapping& mapping)
{
  if (mapping.data_parallel() || mapping.has_deal())
    throw InputError::keyed(mapping.data_parallel() ? first_group_key(mapping) : first_deal_key(mapping),
                            "worst-case period bound: every interval must be actively replicated on single processors");
  auto alloc = [&](int j) {
    std::vector<int> out;
    for (const auto& group : mapping.interval(j).replicas)
      out.push_back(group.front());
    return out;
  };
  double bound = 0;
  for (int u : mapping.processors()) {
    ProcessorLoad load;
    std::map<int, double> in_link, out_link; // peer -> bytes
    for (int j : mapping.intervals_of(u)) {
      const Interval& in = mapping.interval(j);
      load.work += pipeline.work(in.first, in.last);
      if (j == 0 || !mapping.interval(j - 1).holds(u)) { // u receives I_j's input from any possible sender
        double delta = pipeline.data(in.first - 1);
        load.in_bytes += delta;
        for (int v : j == 0 ? std::vector<int>{platform.in()} : alloc(j - 1))
          in_link[v] += delta;
      }
      if (j + 1 == mapping.m()) // u elected for I_j, every replica of I_{j+1} alive
        out_link[platform.out()] += pipeline.data(in.last);
      else
        for (int v : alloc(j + 1))
          if (!in.holds(v)) out_link[v] += pipeline.data(in.last);
    }
    load.in_links.assign(in_link.begin(), in_link.end());
    load.out_links.assign(out_link.begin(), out_link.end());
    bound = std::max(bound, bbr10_processor_bound(platform, u, load));
  }
  return bound;
}

double bbr10_processor_bound(const Platform& platform, int u, const ProcessorLoad& load)
{
  const Processor& pu = platform.processor(u);
  double term = load.work / pu.speed, in_latency = 0, out_latency = 0, out_bytes = 0;
  for (auto [v, bytes] : load.in_links) {
    term       = std::max(term, platform.transfer_time(v, u, bytes));
    in_latency = std::max(in_latency, platform.latency(v, u));
  }
  for (auto [v, bytes] : load.out_links) {
    term        = std::max(term, platform.transfer_time(u, v, bytes));
    out_latency = std::max(out_latency, platform.latency(u, v));
    out_bytes += bytes;
  }
  if (load.in_bytes > 0) term = std::max(term, in_latency + load.in_bytes / pu.nic_in);
  if (out_bytes > 0) term = std::max(term, out_latency + out_bytes / pu.nic_out);
  return term;
}

} // namespace pipesim
