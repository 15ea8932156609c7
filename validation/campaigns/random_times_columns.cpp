// The campaign columns of random operation times (random_times_columns.hpp).
#include "validation/campaigns/random_times_columns.hpp"

#include "validation/evaluation/random_times_output.hpp"

namespace pipesim {

void add_stochastic_columns(CampaignRow& row, const ScenarioRun& run)
{
  if (run.simulated && run.simulated->estimate) {
    const PeriodEstimate& e      = *run.simulated->estimate;
    row.simulated_period_ci_low  = e.ok ? RowNumber(e.ci_lo) : RowNumber::null();
    row.simulated_period_ci_high = e.ok ? RowNumber(e.ci_hi) : RowNumber::null();
    row.simulated_datasets       = run.simulated->output_times.size();
    row.simulated_warmup         = static_cast<std::uint64_t>(e.warmup);
  }
  if (!run.stochastic) return;
  const RandomTimesSummary& r = *run.stochastic;
  const PeriodEstimate& m     = r.maxplus.estimate;
  row.deterministic_period    = r.deterministic_period;
  row.maxplus_period          = m.ok ? RowNumber(m.period) : RowNumber::null();
  row.maxplus_ci_low          = m.ok ? RowNumber(m.ci_lo) : RowNumber::null();
  row.maxplus_ci_high         = m.ok ? RowNumber(m.ci_hi) : RowNumber::null();
  row.exponential_period      = r.exponential.period;
  row.exponential_states      = static_cast<std::uint64_t>(r.exponential.states);
  row.nbue_applies            = r.bracket.applies;
  if (const PeriodEstimate* e = checked_estimate(run); e && r.bracket.applies)
    row.nbue_holds = r.bracket.contains(e->ci_lo, e->ci_hi);
}

} // namespace pipesim
