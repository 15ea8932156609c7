// hedpm Table 2 for any scenario: what HeDPM (Algorithm 4.1) matched at each iteration, and HeDPM-scan's runs
// (Algorithm 4.2). Printed by `pipesim hedpm-trace SCENARIO`.
#pragma once

#include "model/pipeline.hpp"
#include "platforms/platform.hpp"

#include <nlohmann/json_fwd.hpp>
#include <string>

namespace pipesim {

/// The trace as a table: one row per iteration of Algorithm 4.1 with the processors and stages left in their sorted
/// order (eqs. (3)-(4)), Tideal (eq. (6)), the match and its Tmatch (eqs. (1)-(2)), as hedpm Table 2; the
/// processors added once the stages ran out; the mapping and its predicted production time; then each run of
/// Algorithm 4.2 (objective, production time, whether the last match is the most or the least loaded) and the run it
/// keeps. Processors by name, stages as S1..Sn. Throws InputError when HeDPM refuses the problem.
std::string hedpm_trace_table(const Pipeline& pipeline, const Platform& platform);

/// The same as JSON: {"iterations": [{processor_list, stage_list, tideal, match: {stages, processors}, tmatch}],
/// "leftover", "mapping", "production_time", "scan": {tobj0, direction, best, runs: [...]}}.
nlohmann::json hedpm_trace_json(const Pipeline& pipeline, const Platform& platform);

} // namespace pipesim
