// Issue 14: the exact event-graph period of a deal mapping with L = 5,040 (R = 5, 7, 9, 16 on four dealt intervals,
// 37 processors, Fully Heterogeneous with cards), one-port and multi-port allotted. Target: built and solved in
// <= 1 s. Reported as CPU time, with the graph sizes and, as a baseline measured in the same process, the number of
// max-plus passes over the same graph (event_graph_schedule, one round: O(V + E)) that the solve costs. The row's
// label states the CPU time against the target (bench/target.hpp).
#include "model/event_graph.hpp"
#include "bench/cpu_time.hpp"
#include "bench/target.hpp"
#include "model/comm_model.hpp"
#include "model/multiport_event_graph.hpp"
#include "model/test_fixtures.hpp"

#include <benchmark/benchmark.h>
#include <fmt/format.h>

using namespace pipesim;

namespace {

fixtures::RandomInstance deal_5040()
{
  Rng rng(7);
  auto inst = fixtures::random_multiport_instance(rng, 4, 37, false);
  int next  = 0;
  for (int r : {5, 7, 9, 16}) {
    int stage = static_cast<int>(inst.mapping.intervals.size()) + 1;
    Interval in{stage, stage, {}, Replication::deal};
    for (int k = 0; k < r; ++k)
      in.replicas.push_back({next++});
    inst.mapping.intervals.push_back(in);
  }
  return inst;
}

/// range(0): 0 one-port, 1 multi-port allotted.
void BM_Deal5040(benchmark::State& state)
{
  auto inst    = deal_5040();
  bool multi   = state.range(0) == 1;
  double build = 0, solve = 0, pass = 0, period = 0;
  EventGraph g;
  for (auto _ : state) {
    double t0 = bench::cpu_seconds();
    g         = multi ? build_multiport_event_graph(inst.pipeline, inst.platform, inst.mapping)
                      : build_oneport_event_graph(inst.pipeline, inst.platform, inst.mapping);
    double t1 = bench::cpu_seconds();
    period    = max_cycle_ratio(g).period;
    double t2 = bench::cpu_seconds();
    benchmark::DoNotOptimize(event_graph_schedule(g, 1));
    double t3 = bench::cpu_seconds();
    build += t1 - t0;
    solve += t2 - t1;
    pass += t3 - t2;
  }
  auto n                         = static_cast<double>(state.iterations());
  state.counters["L"]            = g.datasets_per_round;
  state.counters["transitions"]  = static_cast<double>(g.transitions.size());
  state.counters["places"]       = static_cast<double>(g.places.size());
  state.counters["period"]       = period;
  state.counters["build_cpu_s"]  = build / n;
  state.counters["solve_cpu_s"]  = solve / n;
  state.counters["total_cpu_s"]  = (build + solve) / n;
  state.counters["solve/passes"] = solve / pass;
  state.SetLabel(fmt::format("{}; {}", multi ? CommModel::multi_port : CommModel::one_port,
                             bench::target_line("CPU built and solved", (build + solve) / n,
                                                {bench::Bound::at_most, 1, bench::Unit::seconds})));
}

} // namespace

BENCHMARK(BM_Deal5040)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond)->Iterations(3);
BENCHMARK_MAIN();
