// Simulation settings and results, shared by the SimGrid deployment, the process runner and the CLI.
#pragma once

#include "base/enum_names.hpp"
#include "base/period_estimate.hpp"
#include "base/progress.hpp"
#include "model/bbr10/election.hpp"
#include "model/comm_model.hpp"
#include "model/operation.hpp"
#include "simulator/remap.hpp"

#include <algorithm>
#include <cstdint>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>
#include <vector>

namespace pipesim {

enum class NetworkMode {
  exact,  // CM02, no cross traffic, no TCP window bound: transfers take exactly c + X/b (DESIGN.md §3.4)
  simgrid // SimGrid's defaults (LV08, cross traffic), for what-if realism
};
PIPESIM_ENUM_NAMES(NetworkMode, {exact, "exact"}, {simgrid, "simgrid"});

/// One fail-silent crash: the processor's host is turned off at `time` (DESIGN.md §3.5).
struct Crash {
  std::string host;
  double time                         = 0;
  bool operator==(const Crash&) const = default;
};

/// Where crashes come from (DESIGN.md §3.5).
enum class FailureModel {
  none,
  probability, // processor u crashes with probability f_u, at a time uniform in a window of the fault-free makespan
  exponential, // crash time ~ Exp(1 / MTBF_u)
  trace,       // an explicit list of (host, time)
  platform     // the host state profiles of the SimGrid XML platform, as SimGrid runs them
};
PIPESIM_ENUM_NAMES(FailureModel, {none, "none"}, {probability, "probability"}, {exponential, "exponential"},
                   {trace, "trace"}, {platform, "platform"});

/// The failure model of a run (DESIGN.md §3.5). The simulator itself only executes a crash schedule (`crashes`,
/// drawn beforehand by draw_crash_schedule, simulator/failures.hpp) or, for `platform`, the state profiles of the
/// SimGrid XML file.
struct FailureSettings {
  FailureModel model  = FailureModel::none;
  double window_begin = 0; // probability: crash times uniform in [begin, end] x fault-free makespan
  double window_end   = 0.5;
  std::vector<Crash> trace; // trace: the explicit schedule
  /// Who sends for an interval, at the start of a run and after every crash ("random" is seeded with the run's seed).
  ElectionPolicy election = ElectionPolicy::first;
  bool enabled() const { return model != FailureModel::none; }
};

/// How the multi-port model shares bandwidth (DESIGN.md §3.2).
enum class Allocation {
  fair,    // SimGrid's max-min sharing
  allotted // each transfer's rate capped as the analytic model assumes (Comm::set_rate)
};
PIPESIM_ENUM_NAMES(Allocation, {fair, "fair"}, {allotted, "allotted"});

/// Data sets N of one simulated run at most: the simulator keeps about 100 bytes per data set (1 GB at the limit) and
/// simulates 3e4 data sets/s of a 3-stage pipeline, 1.4e5 stage-data sets/s (so a 100-stage pipeline at the limit
/// takes about two hours).
inline constexpr int max_simulated_datasets = 10'000'000;
/// Data sets a run with `simulation.precision` may go up to when `simulation.max_datasets` is not given (about 100 MB
/// kept, half a minute of a 3-stage pipeline).
inline constexpr int default_max_datasets = 1'000'000;
/// Monte Carlo runs of one series at most: about 70 runs/s of a 16-stage pipeline on 2 cores, 4 hours at the limit.
inline constexpr int max_monte_carlo_runs = 1'000'000;

struct SimulationSettings {
  CommModel model       = CommModel::one_port;
  Allocation allocation = Allocation::fair; // multi-port only
  int buffer            = 1;                // multi-port: data sets each buffer between receive, compute and send holds
  NetworkMode network   = NetworkMode::exact;
  int datasets          = 200; // N (with `precision`: the outputs at which the interval is first looked at)
  int warmup            = -1;  // K; -1 means N/2
  /// > 0: the period run goes on until the 95 % interval of its period has this relative half-width (PrecisionRule,
  /// simulator/stopping_rule.hpp), up to effective_max_datasets() outputs. The fault-free period run only: crash runs,
  /// series runs and the latency run run N data sets.
  double precision   = 0;
  int max_datasets   = 0; // with precision: at most this many data sets; 0: default_max_datasets (or N if larger)
  std::uint64_t seed = 42;
  std::vector<std::string> simgrid_args; // --cfg=... and --log=... passed to SimGrid as given
  bool record_trace = false;             // keep the per-operation event trace
  /// Data sets output so far on stderr (base/progress.hpp), from the run's own process; not read from scenarios:
  /// `pipesim simulate` sets it for its period run when stderr is a terminal. Costs a pointer test per data set.
  ProgressMode progress = ProgressMode::off;

  FailureSettings failures;
  std::vector<Crash> crashes; // the schedule this run applies (drawn from `failures` by the caller)
  int runs = 1;               // Monte Carlo: independent runs, seeds derived from `seed`

  int cooldown =
      -1; // last data sets left out of the period; -1: 0 for one-port, N/4 for multi-port (docs/semantics.md)
  /// Data sets per window of the throughput series of a time-varying platform (docs/dynamic.md); 0: about N / 20, a
  /// multiple of the deal round.
  int window = 0;

  int effective_warmup() const { return warmup < 0 ? datasets / 2 : warmup; }
  int effective_max_datasets() const
  {
    return max_datasets > 0 ? max_datasets : std::max(datasets, default_max_datasets);
  }
  int effective_cooldown() const { return cooldown_of(datasets); }
  /// The cool-down of a run that output `outputs` data sets (a precision run's N is its outputs).
  int cooldown_of(int outputs) const
  {
    if (cooldown >= 0) return cooldown;
    return model == CommModel::multi_port ? outputs / 4 : 0;
  }
};

/// One operation of a simulated run, for traces and Gantt charts.
struct TraceEvent {
  std::string host;
  Operation kind = Operation::compute;
  int dataset    = 0;
  int interval   = 0;
  double start   = 0;
  double end     = 0;
};

struct ProcessorUsage {
  std::string host;
  double compute = 0; // busy fractions of the makespan
  double send    = 0;
  double receive = 0;
  double& busy(Operation kind)
  {
    return kind == Operation::compute ? compute : kind == Operation::send ? send : receive;
  }
};

/// How a run ended (DESIGN.md §3.5).
enum class Verdict {
  survived, // all N data sets reached P_out in order, once each
  failed,   // an interval lost its last replica while it still had work, or a transfer met a link that is off
  error     // no verdict: the run did not end by the protocol (a simulator bug; Monte Carlo records such runs)
};
PIPESIM_ENUM_NAMES(Verdict, {survived, "survived"}, {failed, "failed"}, {error, "error"});

/// What a run with failures measured (DESIGN.md §3.5, §3.7).
struct FailureOutcome {
  Verdict verdict     = Verdict::error; // until the run ends
  double failure_time = -1;   // failed: when an interval lost its last replica while it still had work, when a replica
                              // of a dealt interval crashed with data sets left (no redundancy), or when a transfer
                              // failed on a link that was off (bbr10 assumes reliable links)
  int failed_interval = -1;   // failed: index j of that interval (0-based); a link failure: the sending interval
  std::string failed_link;    // failed because a transfer crossed a link that was off: that link ("": not a link)
  std::vector<Crash> crashes; // the crashes that happened (before the run ended), in time order
  double period_before    = -1; // period over the outputs before the first crash (-1: too few outputs)
  double period_after     = -1; // steady-state period over the outputs after the last crash (-1: too few)
  int elections           = 0;  // re-elections (an interval's sender replaced after a crash)
  int duplicates          = 0;  // data sets received twice and dropped
  int delivered           = 0;  // distinct data sets that reached P_out
  ElectionPolicy election = ElectionPolicy::first; // the election policy of the run (FailureSettings::election)

  /// The run failed: an interval lost its last replica, or (fault-free runs too) a transfer met a link that is off.
  bool failed() const { return verdict == Verdict::failed; }
};

struct SimulationResult {
  std::vector<double> output_times; // t_1..t_N at P_out (fewer when the run failed)
  FailureOutcome failures;
  std::uint64_t seed = 0;
  double period      = 0; // (t_N - t_K) / (N - K); the estimate's period when there is an estimate and it is ok
  /// The period's confidence interval, warm-up detected (estimate_period, base/period_estimate.hpp): for fault-free
  /// pipeline period runs with random operation times or `simulation.precision`; absent otherwise.
  std::optional<PeriodEstimate> estimate;
  double makespan = 0;
  std::vector<ProcessorUsage> usage;
  std::vector<TraceEvent> trace;
  NetworkMode network = NetworkMode::exact;
  std::vector<std::string> config; // every --cfg applied, ours and the user's
  /// A run with a re-mapping policy (SimulationJob::policy): each re-map, in order (`dynamic.remaps`), and the
  /// measurement windows it closed. Empty otherwise.
  std::vector<RemapRecord> remaps;
  int remap_windows = 0;
  /// on_crash: remap (docs/dynamic.md): data sets lost with crashed processors, and crashes repaired by a re-map.
  int datasets_lost    = 0;
  int crashes_repaired = 0;
};

/// Period over the warm-up: (t_N - t_K) / (N - K) with t numbered from 1 (DESIGN.md §3.7).
/// With a cool-down C the last C outputs are left out: (t_{N-C} - t_K) / (N - C - K). Multi-port runs need it: when
/// the first intervals of a processor run out of data sets, the ones still working get the whole CPU and the last
/// outputs come faster than the steady state. With deal replication (`window` = L = deal_round(mapping) > 1) the
/// outputs repeat per round of L data sets, not per data set: the warm-up K is rounded up and the end N - C down to
/// multiples of L, so the period is taken over whole rounds (DESIGN.md §3.9; docs/semantics.md).
double measured_period(const std::vector<double>& output_times, int warmup, int cooldown = 0, int window = 1);
/// Whether measured_period takes whole rounds of `window` data sets on `outputs` outputs (cool-down left out): it
/// needs two rounds, 2 L outputs; with fewer it falls back to the plain formula over part of a round, which is not the
/// steady-state period of a dealt mapping (the output says so: docs/semantics.md, "Simulation and measurement").
bool measured_over_whole_rounds(int outputs, int cooldown, int window);

/// JSON of a period estimate (every field, for a run's way back from its child process) and back.
nlohmann::json estimate_json(const PeriodEstimate& e);
PeriodEstimate estimate_from_json(const nlohmann::json& j);

/// JSON of a run's failure measurements (interval numbered from 1, absent values null).
nlohmann::json failure_json(const FailureOutcome& outcome);
FailureOutcome failure_from_json(const nlohmann::json& j);

/// A run's JSON form (`nlohmann::json j = result;`), which also carries it back from its child process.
void to_json(nlohmann::json& j, const SimulationResult& r);
void from_json(const nlohmann::json& j, SimulationResult& r);

/// SimGrid's clock is a double: a run whose data sets could end past ~1e308 s gets infinite dates, then a period of 0
/// or a deadlock at time inf. InputError before the run unless (datasets + 1) x `one_dataset` (an upper bound of one
/// data set's time through the execution, `what`: "on this mapping") stays below 1e307 s; `fix` says what to change.
void refuse_clock_overflow(int datasets, double one_dataset, const std::string& what, const std::string& fix);

} // namespace pipesim
