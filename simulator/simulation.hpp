// Simulation settings and results, shared by the SimGrid deployment, the process runner and the CLI.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace pipesim {

enum class NetworkMode {
  exact,  // CM02, no cross traffic, no TCP window bound: transfers take exactly c + X/b (DESIGN.md §3.4)
  simgrid // SimGrid's defaults (LV08, cross traffic), for what-if realism
};
const char* to_string(NetworkMode mode);

/// One fail-silent crash: the processor's host is turned off at `time` (DESIGN.md §3.5).
struct Crash {
  std::string host;
  double time                         = 0;
  bool operator==(const Crash&) const = default;
};

/// The failure model of a run (DESIGN.md §3.5). The simulator itself only executes a crash schedule (`crashes`,
/// drawn beforehand by draw_crash_schedule, simulator/failures.hpp) or, for `platform`, the state profiles of the
/// SimGrid XML file.
struct FailureSettings {
  std::string model   = "none"; // none | probability | exponential | trace | platform
  double window_begin = 0;      // probability: crash times uniform in [begin, end] x fault-free makespan
  double window_end   = 0.5;
  std::vector<Crash> trace;       // trace: the explicit schedule
  std::string election = "first"; // who sends for an interval: one of election_policy_names()
  bool enabled() const { return model != "none"; }
};

/// The policies `FailureSettings::election` accepts, at the start of a run and after every crash: "first" (the
/// default: the first alive replica of each interval in the mapping's order, the same election as "first-alive") and
/// the seed 004 §6.1 elections of model/bbr10/election.hpp by name ("random" is seeded with the run's seed).
std::vector<std::string> election_policy_names();

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

  FailureSettings failures;
  std::vector<Crash> crashes; // the schedule this run applies (drawn from `failures` by the caller)
  int runs = 1;               // Monte Carlo: independent runs, seeds derived from `seed`

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

/// What a run with failures measured (DESIGN.md §3.5, §3.7).
struct FailureOutcome {
  std::string verdict;        // survived: all N data sets reached P_out in order, once each; failed
  double failure_time = -1;   // failed: when an interval lost its last replica while it still had work, when a
                              // replica of a dealt interval crashed with data sets left (no redundancy), or when a
                              // transfer failed on a link that was off (seed 004 assumes reliable links)
  int failed_interval = -1;   // failed: index j of that interval (0-based); a link failure: the sending interval
  std::string failed_link;    // failed because a transfer crossed a link that was off: that link ("": not a link)
  std::vector<Crash> crashes; // the crashes that happened (before the run ended), in time order
  double period_before = -1;  // period over the outputs before the first crash (-1: too few outputs)
  double period_after  = -1;  // steady-state period over the outputs after the last crash (-1: too few)
  int elections        = 0;   // re-elections (an interval's sender replaced after a crash)
  int duplicates       = 0;   // data sets received twice and dropped
  int delivered        = 0;   // distinct data sets that reached P_out
  std::string election;       // the election policy of the run (FailureSettings::election)

  /// The run failed: an interval lost its last replica, or (fault-free runs too) a transfer met a link that is off.
  bool failed() const { return verdict == "failed"; }
};

struct SimulationResult {
  std::vector<double> output_times; // t_1..t_N at P_out (fewer when the run failed)
  FailureOutcome failures;
  std::uint64_t seed = 0;
  double period      = 0; // (t_N - t_K) / (N - K)
  double makespan    = 0;
  std::vector<ProcessorUsage> usage;
  std::vector<TraceEvent> trace;
  std::string network;             // "exact" or "simgrid"
  std::vector<std::string> config; // every --cfg applied, ours and the user's
};

/// Period over the warm-up: (t_N - t_K) / (N - K) with t numbered from 1 (DESIGN.md §3.7).
/// With a cool-down C the last C outputs are left out: (t_{N-C} - t_K) / (N - C - K). Multi-port runs need it: when
/// the first intervals of a processor run out of data sets, the ones still working get the whole CPU and the last
/// outputs come faster than the steady state. With deal replication (`window` = L = deal_round(mapping) > 1) the
/// outputs repeat per round of L data sets, not per data set: the warm-up K is rounded up and the end N - C down to
/// multiples of L, so the period is taken over whole rounds (DESIGN.md §3.9; docs/semantics.md).
double measured_period(const std::vector<double>& output_times, int warmup, int cooldown = 0, int window = 1);

} // namespace pipesim
