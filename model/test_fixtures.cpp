// Shared test fixtures (compiled into the model library so every test binary can use them).
#include "model/test_fixtures.hpp"

#include "model/multiport_event_graph.hpp"

#include <algorithm>
#include <fmt/format.h>

namespace pipesim::fixtures {

Interval interval(int first, int last, const std::vector<int>& procs, Replication replication)
{
  Interval in{first, last, {}, replication};
  for (int u : procs)
    in.replicas.push_back({u});
  return in;
}

Eq6Example::Eq6Example()
{
  platform = Platform({{"P1", 1.0}, {"P2", 10.0}}, "P0", "P0", 1.0, 0.0);
  // node 2 = P_in, node 3 = P_out, both the host P0
  for (int io : {platform.in(), platform.out()}) {
    platform.set_link(io, 0, 10, 0); // b_{0,1} = 10
    platform.set_link(0, io, 10, 0);
    platform.set_link(io, 1, 1, 0); // b_{0,2} = 1
    platform.set_link(1, io, 1, 0);
  }
  platform.set_link(0, 1, 1, 0); // b_{1,2} = 1
  platform.set_link(1, 0, 1, 0);
  mapping.intervals = {Interval{1, 1, {{0}}, Replication::active}, Interval{2, 2, {{1}}, Replication::active},
                       Interval{3, 3, {{0}}, Replication::active}};
}

namespace {
Interval active_interval(int first, int last, const std::vector<int>& procs)
{
  Interval in{first, last, {}, Replication::active};
  for (int u : procs)
    in.replicas.push_back({u});
  return in;
}
} // namespace

Bbr10Section2::Bbr10Section2()
{
  std::vector<Processor> procs;
  for (int u = 0; u < 12; ++u) {
    bool first = u < 6;
    procs.push_back(Processor{fmt::format("P{}", u + 1), first ? 45.0 : 55.0, 0.15, u == 4 || u == 5 ? 7.0 : 20.0,
                              first ? 20.0 : 30.0});
  }
  platform = Platform(procs, "in", "out", 10, 0);
}

Mapping Bbr10Section2::general() const
{
  return Mapping{{active_interval(1, 1, {0, 1, 2, 3, 4, 5}), active_interval(2, 2, {6, 7, 8, 9, 10, 11}),
                  active_interval(3, 3, {0, 1, 2, 3, 4, 5})}};
}

Mapping Bbr10Section2::interval() const
{
  return Mapping{{active_interval(1, 1, {0, 1, 2, 3}), active_interval(2, 2, {6, 7, 8, 9}),
                  active_interval(3, 3, {4, 5, 10, 11})}};
}

ElectionExample::ElectionExample()
{
  platform = Platform(
      {Processor{"P1", 100, 0.1, unbounded, 20}, Processor{"P2", 100, 0.1, unbounded, 15}, Processor{"P3", 100, 0.1}},
      "in", "out", 100, 0);
  mapping = Mapping{{active_interval(1, 1, {0, 1}), active_interval(2, 2, {2}), active_interval(3, 3, {0, 1})}};
}

FailureConfiguration crashed(const Platform& platform, const std::vector<int>& dead)
{
  auto config = FailureConfiguration::all_alive(platform);
  for (int u : dead)
    config.alive[static_cast<std::size_t>(u)] = false;
  return config;
}

std::string RandomInstance::describe() const
{
  std::string s = "w =";
  for (double x : pipeline.w)
    s += fmt::format(" {}", x);
  s += "; delta =";
  for (double x : pipeline.delta)
    s += fmt::format(" {}", x);
  s += "; speeds =";
  for (const auto& pr : platform.processors())
    s += fmt::format(" {}", pr.speed);
  s += "; mapping = " + to_text(mapping, platform);
  return s;
}

RandomInstance random_platform_and_pipeline(Rng& rng, int n, int p, bool latencies)
{
  RandomInstance inst;
  for (int i = 0; i < n; ++i)
    inst.pipeline.w.push_back(rng.uniform(1, 20));
  for (int i = 0; i <= n; ++i)
    inst.pipeline.delta.push_back(rng.uniform(1, 100));
  std::vector<Processor> procs;
  for (int u = 0; u < p; ++u)
    procs.push_back(Processor{fmt::format("P{}", u + 1), rng.uniform(1, 20)});
  inst.platform = Platform(procs, "in", "out");
  for (int u = 0; u < inst.platform.nodes(); ++u)
    for (int v = 0; v < inst.platform.nodes(); ++v)
      if (u != v) inst.platform.set_link(u, v, rng.uniform(1, 10), latencies ? rng.uniform(0, 0.1) : 0.0);
  return inst;
}

namespace {
/// Random cut of 1..n into m intervals.
std::vector<std::pair<int, int>> random_cut(Rng& rng, int n, int m)
{
  std::vector<int> cuts;
  for (int i = 1; i < n; ++i)
    cuts.push_back(i);
  for (std::size_t i = 0; i + 1 < cuts.size(); ++i) // Fisher-Yates prefix
    std::swap(cuts[i], cuts[i + static_cast<std::size_t>(rng.integer(0, static_cast<long long>(cuts.size() - i - 1)))]);
  cuts.resize(static_cast<std::size_t>(m - 1));
  std::sort(cuts.begin(), cuts.end());
  std::vector<std::pair<int, int>> out;
  int first = 1;
  for (int c : cuts) {
    out.emplace_back(first, c);
    first = c + 1;
  }
  out.emplace_back(first, n);
  return out;
}

std::vector<int> shuffled(Rng& rng, int p)
{
  std::vector<int> procs;
  for (int u = 0; u < p; ++u)
    procs.push_back(u);
  for (std::size_t i = procs.size(); i > 1; --i)
    std::swap(procs[i - 1], procs[static_cast<std::size_t>(rng.integer(0, static_cast<long long>(i - 1)))]);
  return procs;
}
} // namespace

void random_interval_mapping(Rng& rng, RandomInstance& inst)
{
  int n      = inst.pipeline.n();
  int m      = static_cast<int>(rng.integer(1, std::min(n, inst.platform.p())));
  auto procs = shuffled(rng, inst.platform.p());
  procs.resize(static_cast<std::size_t>(m));
  inst.mapping = make_interval_mapping(random_cut(rng, n, m), procs);
}

void random_replicated_mapping(Rng& rng, RandomInstance& inst)
{
  int n      = inst.pipeline.n();
  int p      = inst.platform.p();
  int m      = static_cast<int>(rng.integer(1, std::min(n, p)));
  auto procs = shuffled(rng, p);
  auto cut   = random_cut(rng, n, m);
  inst.mapping.intervals.clear();
  std::size_t next = 0;
  for (int j = 0; j < m; ++j) {
    std::size_t left_for_others = static_cast<std::size_t>(m - j - 1);
    auto max_r                  = std::min<long long>(3, static_cast<long long>(procs.size() - next - left_for_others));
    auto r                      = rng.integer(1, max_r);
    Interval in{
        cut[static_cast<std::size_t>(j)].first, cut[static_cast<std::size_t>(j)].second, {}, Replication::active};
    for (long long k = 0; k < r; ++k)
      in.replicas.push_back({procs[next++]});
    inst.mapping.intervals.push_back(in);
  }
}

void random_deal_mapping(Rng& rng, RandomInstance& inst, int max_replicas, double deal)
{
  random_replicated_mapping(rng, inst);
  // regroup the processors: the same cut, 1..max_replicas replicas each
  std::vector<int> procs = shuffled(rng, inst.platform.p());
  std::size_t next       = 0;
  const int m            = inst.mapping.m();
  for (int j = 0; j < m; ++j) {
    auto& in   = inst.mapping.intervals[static_cast<std::size_t>(j)];
    auto left  = static_cast<long long>(procs.size() - next) - (m - j - 1);
    auto count = rng.integer(1, std::min<long long>(max_replicas, left));
    in.replicas.clear();
    for (long long r = 0; r < count; ++r)
      in.replicas.push_back({procs[next++]});
    in.replication = count > 1 && rng.uniform01() < deal ? Replication::deal : Replication::active;
  }
}

void random_general_mapping(Rng& rng, RandomInstance& inst)
{
  int n      = inst.pipeline.n();
  int m      = static_cast<int>(rng.integer(1, n));
  auto cut   = random_cut(rng, n, m);
  int k      = static_cast<int>(rng.integer(1, std::min(m, inst.platform.p()))); // processors used
  auto procs = shuffled(rng, inst.platform.p());
  std::vector<int> alloc;
  for (int j = 0; j < m; ++j)
    alloc.push_back(procs[static_cast<std::size_t>(rng.integer(0, k - 1))]);
  inst.mapping = make_interval_mapping(cut, alloc);
}

void random_replicated_general_mapping(Rng& rng, RandomInstance& inst, int max_replicas, bool cards)
{
  int n      = inst.pipeline.n();
  int p      = inst.platform.p();
  int m      = static_cast<int>(rng.integer(1, n));
  auto cut   = random_cut(rng, n, m);
  int l      = static_cast<int>(rng.integer(1, std::min(m, p))); // subsets
  auto procs = shuffled(rng, p);
  std::vector<std::vector<int>> sets(static_cast<std::size_t>(l));
  std::size_t next = 0;
  for (int k = 0; k < l; ++k) {
    auto left = static_cast<long long>(procs.size() - next) - (l - k - 1);
    auto r    = rng.integer(1, std::min<long long>(max_replicas, left));
    for (long long i = 0; i < r; ++i)
      sets[static_cast<std::size_t>(k)].push_back(procs[next++]);
  }
  inst.mapping.intervals.clear();
  for (int j = 0; j < m; ++j) {
    const auto& set = sets[static_cast<std::size_t>(j < l ? j : rng.integer(0, l - 1))]; // every subset used
    Interval in{
        cut[static_cast<std::size_t>(j)].first, cut[static_cast<std::size_t>(j)].second, {}, Replication::active};
    for (int u : set)
      in.replicas.push_back({u});
    inst.mapping.intervals.push_back(in);
  }
  for (int u = 0; u < p; ++u) {
    if (cards) {
      inst.platform.processor(u).nic_in  = rng.uniform(1, 10);
      inst.platform.processor(u).nic_out = rng.uniform(1, 10);
    }
    inst.platform.processor(u).failure_probability = rng.uniform(0.05, 0.3);
  }
}

CardExample::CardExample()
{
  platform                      = Platform({{"P1", 10.0}, {"P2", 5.0}, {"P3", 10.0}, {"P4", 10.0}}, "in", "out", 10.0);
  platform.processor(0).nic_out = 15;
  mapping.intervals             = {Interval{1, 1, {{0}, {1}}, Replication::active},
                                   Interval{2, 2, {{2}, {3}}, Replication::active}};
}

void random_cards(Rng& rng, Platform& platform)
{
  for (int u = 0; u < platform.p(); ++u) {
    if (rng.uniform01() < 0.7) platform.processor(u).nic_in = rng.uniform(1, 10);
    if (rng.uniform01() < 0.7) platform.processor(u).nic_out = rng.uniform(1, 10);
  }
}

RandomInstance random_multiport_instance(Rng& rng, int n, int p, bool latencies)
{
  auto inst = random_platform_and_pipeline(rng, n, p, latencies);
  random_cards(rng, inst.platform);
  return inst;
}

FailureConfiguration random_surviving_configuration(Rng& rng, const RandomInstance& inst, double crash)
{
  FailureConfiguration config;
  do {
    config = FailureConfiguration::all_alive(inst.platform);
    for (int u = 0; u < inst.platform.p(); ++u)
      config.alive[static_cast<std::size_t>(u)] = rng.uniform01() > crash;
  } while (!every_interval_survives(inst.mapping, config));
  return config;
}

TaskChain sv95_worked_chain()
{
  TaskChain chain;
  chain.tasks = {Task{"t1", CostFunction::polynomial(1, 12), 2, 1.5, true},
                 Task{"t2", CostFunction::polynomial(0, 8, 0.5), 1, 2, true},
                 Task{"t3", CostFunction::polynomial(2), 1, 0, false}};
  chain.icom  = {CostFunction::polynomial(0.5, 2), CostFunction::polynomial(0, 4)};
  chain.ecom  = {CommFunction::polynomial(1, 6, 6), CommFunction::polynomial(0, 2, 4, 0.25, 0.25)};
  return chain;
}

RandomGraphCase random_graph_case(std::uint64_t seed, int max_stages, int max_processors)
{
  Rng rng(seed);
  const int kind = static_cast<int>(seed % 6);
  RandomGraphCase c;
  c.inst = random_multiport_instance(rng, static_cast<int>(rng.integer(1, max_stages)),
                                     static_cast<int>(rng.integer(2, max_processors)), seed % 2 == 0);
  if (kind == 0) random_interval_mapping(rng, c.inst);
  if (kind == 1) random_general_mapping(rng, c.inst);
  if (kind == 2 || kind == 4) random_replicated_mapping(rng, c.inst);
  if (kind == 3 || kind == 5) random_deal_mapping(rng, c.inst);
  const int buffer = static_cast<int>(seed % 3) + 1;
  c.graph          = kind < 4 ? build_oneport_event_graph(c.inst.pipeline, c.inst.platform, c.inst.mapping)
                              : build_multiport_event_graph(c.inst.pipeline, c.inst.platform, c.inst.mapping, buffer);
  c.text =
      fmt::format("seed {} ({}, L = {}{}): {}", seed, kind < 4 ? "one-port" : "multi-port allotted",
                  c.graph.datasets_per_round, kind < 4 ? "" : fmt::format(", buffer {}", buffer), c.inst.describe());
  return c;
}

} // namespace pipesim::fixtures
