// Simulation settings and results, shared by the SimGrid deployment, the process runner and the CLI.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace pipesim {

enum class NetworkMode {
  exact,  // CM02, no cross traffic, TCP-gamma 0: transfers take exactly c + X/b (DESIGN.md §3.4)
  simgrid // SimGrid's defaults (LV08, cross traffic), for what-if realism
};
const char* to_string(NetworkMode mode);

struct SimulationSettings {
  std::string model      = "one-port"; // one-port | multi-port
  std::string allocation = "fair";     // multi-port: fair (SimGrid max-min) | allotted (rates as the formulas assume)
  int buffer             = 1;          // multi-port: data sets each buffer between receive, compute and send holds
  NetworkMode network    = NetworkMode::exact;
  int datasets           = 200; // N
  int warmup             = -1;  // K; -1 means N/2
  std::uint64_t seed     = 42;
  std::vector<std::string> simgrid_args; // --cfg=... and --log=... passed to SimGrid as given
  bool record_trace = false;             // keep the per-operation event trace

  int cooldown =
      -1; // last data sets left out of the period; -1: 0 for one-port, N/4 for multi-port (docs/semantics.md)

  int effective_warmup() const { return warmup < 0 ? datasets / 2 : warmup; }
  int effective_cooldown() const
  {
    if (cooldown >= 0) return cooldown;
    return model == "multi-port" ? datasets / 4 : 0;
  }
};

/// One operation of a simulated run, for traces and Gantt charts.
struct TraceEvent {
  std::string host;
  std::string kind; // "receive", "compute", "send"
  int dataset  = 0;
  int interval = 0;
  double start = 0;
  double end   = 0;
};

struct ProcessorUsage {
  std::string host;
  double compute = 0; // busy fractions of the makespan
  double send    = 0;
  double receive = 0;
};

struct SimulationResult {
  std::vector<double> output_times; // t_1..t_N at P_out
  double period   = 0;              // (t_N - t_K) / (N - K)
  double makespan = 0;
  std::vector<ProcessorUsage> usage;
  std::vector<TraceEvent> trace;
  std::string network;             // "exact" or "simgrid"
  std::vector<std::string> config; // every --cfg applied, ours and the user's
};

/// Period over the warm-up: (t_N - t_K) / (N - K) with t numbered from 1 (DESIGN.md §3.7).
/// With a cool-down C the last C outputs are left out: (t_{N-C} - t_K) / (N - C - K). Multi-port runs need it: when
/// the first intervals of a processor run out of data sets, the ones still working get the whole CPU and the last
/// outputs come faster than the steady state.
double measured_period(const std::vector<double>& output_times, int warmup, int cooldown = 0);

} // namespace pipesim
