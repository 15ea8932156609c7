// HeDPM-scan (hedpm Algorithm 4.2): sweeps of the production-time objective while the last match stays unbalanced.
#include "mappers/hedpm/hedpm_scan.hpp"

#include "model/hedpm/production_time.hpp"

#include <algorithm>

namespace pipesim {

namespace {
const MapperRegistration hedpm_scan_registration{[] { return std::make_unique<HedpmScanMapper>(); }};

HedpmScanStep make_step(const Problem& problem, double objective)
{
  HedpmScanStep step;
  step.objective             = objective;
  step.run                   = hedpm_algorithm41(problem, objective);
  HedpmPrediction prediction = hedpm_predict(problem.pipeline, problem.platform, step.run.mapping);
  step.production_time       = prediction.production_time;
  double last                = prediction.intervals[static_cast<std::size_t>(step.run.last_interval)].time;
  step.last_most_loaded      = std::all_of(prediction.intervals.begin(), prediction.intervals.end(),
                                           [&](const HedpmIntervalPrediction& in) { return in.time <= last; });
  step.last_least_loaded     = std::all_of(prediction.intervals.begin(), prediction.intervals.end(),
                                           [&](const HedpmIntervalPrediction& in) { return in.time >= last; });
  return step;
}
} // namespace

HedpmScan hedpm_algorithm42(const Problem& problem)
{
  HedpmScan scan;
  scan.steps.push_back(make_step(problem, 0));
  scan.tobj0        = scan.steps[0].run.iterations.front().tideal;
  bool up           = scan.steps[0].last_most_loaded; // LastIsWorst()
  bool down         = not up && scan.steps[0].last_least_loaded;
  scan.direction    = up ? 1 : down ? -1 : 0;
  const double step = 0.5 * scan.tobj0 / hedpm_scan_steps;
  for (int k = 1; k <= hedpm_scan_steps && scan.direction != 0; ++k) {
    const HedpmScanStep& previous = scan.steps.back();
    if (up ? not previous.last_most_loaded : not previous.last_least_loaded) break;
    scan.steps.push_back(make_step(problem, scan.tobj0 + scan.direction * k * step));
  }
  for (std::size_t k = 1; k < scan.steps.size(); ++k)
    if (scan.steps[k].production_time < scan.steps[scan.best].production_time) scan.best = k;
  return scan;
}

MapperInfo HedpmScanMapper::info() const
{
  return hedpm_info("hedpm.scan",
                    "hedpm Algorithm 4.2 (HeDPM-scan): Algorithm 4.1 re-run with objectives in [0.5, 1.5] x Tideal "
                    "while the last match is the most or the least loaded",
                    Paper::hedpm, MapperFamily::heuristic, false, "at most 21 runs of Algorithm 4.1");
}

MapperResult HedpmScanMapper::map(const Problem& problem, const MapperOptions& /*options*/) const
{
  HedpmScan scan                      = hedpm_algorithm42(problem);
  const HedpmScanStep& best           = scan.steps[scan.best];
  MapperResult result                 = hedpm_result(problem, best.run);
  result.statistics["runs"]           = static_cast<double>(scan.steps.size());
  result.statistics["tobj0"]          = scan.tobj0;
  result.statistics["best_objective"] = best.objective;
  result.statistics["direction"]      = scan.direction;
  return result;
}

} // namespace pipesim
