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
  std::string model   = "one-port"; // one-port (multi-port comes with issue 5)
  NetworkMode network = NetworkMode::exact;
  int datasets        = 200; // N
  int warmup          = -1;  // K; -1 means N/2
  std::uint64_t seed  = 42;
  std::vector<std::string> simgrid_args; // --cfg=... and --log=... passed to SimGrid as given
  bool record_trace = false;             // keep the per-operation event trace

  int effective_warmup() const { return warmup < 0 ? datasets / 2 : warmup; }
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
double measured_period(const std::vector<double>& output_times, int warmup);

} // namespace pipesim
