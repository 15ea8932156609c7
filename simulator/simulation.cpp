// Measurement helpers shared by every simulation model, and the results' JSON form (how a run comes back from its
// child process).
#include "simulator/simulation.hpp"

#include "base/enum_names.hpp"
#include "base/input_error.hpp"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <limits>
#include <nlohmann/json.hpp>
#include <stdexcept>

namespace pipesim {

double measured_period(const std::vector<double>& output_times, int warmup, int cooldown, int window)
{
  auto n = static_cast<int>(output_times.size());
  if (cooldown > 0 && n - cooldown - std::max(warmup, 1) >= 1) n -= cooldown;
  if (n < 2) return 0;                       // one data set has no period
  if (warmup < 1 || warmup >= n) warmup = 1; // with K = 0 the first output (t_1) is the reference
  if (window > 1) {                          // whole rounds of L data sets: t_K and t_N at the same place of a round
    int end   = n / window * window;
    int start = (warmup + window - 1) / window * window;
    if (end - start < window) start = end - window; // too short a run for the warm-up: the last whole round
    if (start >= 1) {
      warmup = start;
      n      = end;
    } // fewer than L + 1 outputs: no whole round, the plain formula
  }
  // DESIGN.md §3.7: (t_N - t_K) / (N - K) with t numbered from 1
  return (output_times[static_cast<std::size_t>(n - 1)] - output_times[static_cast<std::size_t>(warmup - 1)]) /
         (n - warmup);
}

bool measured_over_whole_rounds(int outputs, int cooldown, int window)
{
  if (window <= 1) return true;
  int n = outputs;
  if (cooldown > 0 && n - cooldown - 1 >= 1) n -= cooldown; // as measured_period (with K >= 1)
  return n / window * window - window >= 1;
}

void refuse_clock_overflow(int datasets, double one_dataset, const std::string& what, const std::string& fix)
{
  if (one_dataset * (datasets + 1.0) < 1e307) return; // false for NaN and inf too
  throw InputError::keyed("simulation.datasets", datasets,
                          fmt::format("data sets of up to {:g} s each {} may end past 1e307 s, beyond what "
                                      "SimGrid's clock (a double) can date; {}",
                                      one_dataset, what, fix));
}

nlohmann::json failure_json(const FailureOutcome& o)
{
  auto crashes = nlohmann::json::array();
  for (const auto& c : o.crashes)
    crashes.push_back({{"host", c.host}, {"time", c.time}});
  auto optional = [](double x) { return x < 0 ? nlohmann::json(nullptr) : nlohmann::json(x); };
  return {{"verdict", to_string(o.verdict)},
          {"failure_time", optional(o.failure_time)},
          {"failed_interval", o.failed_interval < 0 ? nlohmann::json(nullptr) : nlohmann::json(o.failed_interval + 1)},
          {"failed_link", o.failed_link.empty() ? nlohmann::json(nullptr) : nlohmann::json(o.failed_link)},
          {"crashes", crashes},
          {"period_before_first_crash", optional(o.period_before)},
          {"period_after_last_crash", optional(o.period_after)},
          {"elections", o.elections},
          {"duplicates", o.duplicates},
          {"delivered", o.delivered},
          {"election", to_string(o.election)}};
}

FailureOutcome failure_from_json(const nlohmann::json& j)
{
  FailureOutcome o;
  auto optional     = [&](const char* key) { return j.at(key).is_null() ? -1.0 : j.at(key).get<double>(); };
  o.verdict         = parse_enum<Verdict>(j.at("verdict").get<std::string>(), "verdict");
  o.failure_time    = optional("failure_time");
  o.failed_interval = j.at("failed_interval").is_null() ? -1 : j.at("failed_interval").get<int>() - 1;
  if (auto it = j.find("failed_link"); it != j.end() && !it->is_null()) it->get_to(o.failed_link);
  for (const auto& c : j.at("crashes"))
    o.crashes.push_back(Crash{c.at("host"), c.at("time")});
  o.period_before = optional("period_before_first_crash");
  o.period_after  = optional("period_after_last_crash");
  j.at("elections").get_to(o.elections);
  j.at("duplicates").get_to(o.duplicates);
  j.at("delivered").get_to(o.delivered);
  o.election = parse_enum<ElectionPolicy>(j.at("election").get<std::string>(), "election");
  return o;
}

namespace {
/// A number of an estimate that may be non-finite (JSON has no NaN): null, read back as NaN.
nlohmann::json finite_or_null(double x) { return std::isfinite(x) ? nlohmann::json(x) : nlohmann::json(nullptr); }
double number_or_nan(const nlohmann::json& j)
{
  return j.is_null() ? std::numeric_limits<double>::quiet_NaN() : j.get<double>();
}
} // namespace

nlohmann::json estimate_json(const PeriodEstimate& e)
{
  return {{"ok", e.ok},
          {"reason", e.reason},
          {"period", finite_or_null(e.period)},
          {"ci", {finite_or_null(e.ci_lo), finite_or_null(e.ci_hi)}},
          {"confidence", e.confidence},
          {"datasets", e.datasets},
          {"warmup", e.warmup},
          {"batches", e.batches},
          {"batch_datasets", e.batch_datasets},
          {"periodic", e.periodic},
          {"cyclicity", e.cyclicity}};
}

PeriodEstimate estimate_from_json(const nlohmann::json& j)
{
  PeriodEstimate e;
  j.at("ok").get_to(e.ok);
  j.at("reason").get_to(e.reason);
  e.period = number_or_nan(j.at("period"));
  e.ci_lo  = number_or_nan(j.at("ci").at(0));
  e.ci_hi  = number_or_nan(j.at("ci").at(1));
  j.at("confidence").get_to(e.confidence);
  j.at("datasets").get_to(e.datasets);
  j.at("warmup").get_to(e.warmup);
  j.at("batches").get_to(e.batches);
  j.at("batch_datasets").get_to(e.batch_datasets);
  j.at("periodic").get_to(e.periodic);
  j.at("cyclicity").get_to(e.cyclicity);
  return e;
}

void to_json(nlohmann::json& j, const SimulationResult& r)
{
  j             = nlohmann::json{{"output_times", r.output_times},
                     {"period", r.period},
                     {"makespan", r.makespan},
                     {"network", to_string(r.network)},
                     {"config", r.config}};
  j["seed"]     = r.seed;
  j["failures"] = failure_json(r.failures);
  j["estimate"] = r.estimate ? estimate_json(*r.estimate) : nlohmann::json(nullptr);
  j["usage"]    = nlohmann::json::array();
  for (const auto& u : r.usage)
    j["usage"].push_back({{"host", u.host}, {"compute", u.compute}, {"send", u.send}, {"receive", u.receive}});
  j["trace"] = nlohmann::json::array();
  for (const auto& e : r.trace)
    j["trace"].push_back({{"host", e.host},
                          {"kind", to_string(e.kind)},
                          {"dataset", e.dataset},
                          {"interval", e.interval},
                          {"start", e.start},
                          {"end", e.end}});
  if (!r.remaps.empty() || r.remap_windows > 0) { // only runs with a re-mapping policy: other outputs unchanged
    j["remaps"]        = r.remaps;
    j["remap_windows"] = r.remap_windows;
  }
  if (r.datasets_lost > 0 || r.crashes_repaired > 0) { // on_crash: remap (0 when absent)
    j["datasets_lost"]    = r.datasets_lost;
    j["crashes_repaired"] = r.crashes_repaired;
  }
}

void from_json(const nlohmann::json& j, SimulationResult& r)
{
  j.at("output_times").get_to(r.output_times);
  j.at("period").get_to(r.period);
  j.at("makespan").get_to(r.makespan);
  r.network = parse_enum<NetworkMode>(j.at("network").get<std::string>(), "network");
  j.at("config").get_to(r.config);
  j.at("seed").get_to(r.seed);
  r.failures = failure_from_json(j.at("failures"));
  r.estimate.reset();
  if (auto it = j.find("estimate"); it != j.end() && !it->is_null()) r.estimate = estimate_from_json(*it);
  r.usage.clear();
  for (const auto& u : j.at("usage"))
    r.usage.push_back(ProcessorUsage{u.at("host"), u.at("compute"), u.at("send"), u.at("receive")});
  r.trace.clear();
  for (const auto& e : j.at("trace"))
    r.trace.push_back(TraceEvent{e.at("host"), parse_enum<Operation>(e.at("kind").get<std::string>(), "kind"),
                                 e.at("dataset"), e.at("interval"), e.at("start"), e.at("end")});
  r.remaps.clear();
  if (j.contains("remaps")) {
    j.at("remaps").get_to(r.remaps);
    j.at("remap_windows").get_to(r.remap_windows);
  }
  r.datasets_lost    = j.value("datasets_lost", 0);
  r.crashes_repaired = j.value("crashes_repaired", 0);
}

} // namespace pipesim
