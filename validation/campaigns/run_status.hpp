// The status of a campaign's result row (results.jsonl), written by the runner and read back by status and report.
#pragma once

#include "base/enum_names.hpp"

namespace pipesim {

/// The run mapped (and simulated), its mapper found no mapping, bad input (the message in `error`), or the worker
/// died or ran out of time (rows written by the runner). error, crashed and timeout are failures: the run produced
/// no figures.
enum class RunStatus { ok, infeasible, error, crashed, timeout };
PIPESIM_ENUM_NAMES(RunStatus, {ok, "ok"}, {infeasible, "infeasible"}, {error, "error"}, {crashed, "crashed"},
                   {timeout, "timeout"});

constexpr bool is_failure(RunStatus status)
{
  return status == RunStatus::error || status == RunStatus::crashed || status == RunStatus::timeout;
}

} // namespace pipesim
