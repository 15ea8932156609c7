// One Table 1 instance: four elections, the MILP, and their row columns.
#include "validation/campaigns/elections_run.hpp"

#include "validation/campaigns/campaign_row.hpp"

#include "mappers/bbr10/election_milp.hpp"
#include "model/bbr10/election_table.hpp"

#include <algorithm>
#include <chrono>

namespace pipesim {

const std::vector<ElectionPolicy>& table1_heuristics()
{
  using P = ElectionPolicy;
  static const std::vector<ElectionPolicy> policies{P::random, P::max_bout, P::min_comm, P::min_nb_procs};
  return policies;
}

std::string election_period_column(const std::string& heuristic)
{
  std::string column = "period_" + heuristic;
  std::ranges::replace(column, '-', '_');
  return column;
}

ElectionsOutcome run_elections(const Pipeline& pipeline, const Platform& platform, const Mapping& mapping,
                               std::uint64_t seed, double milp_time_limit)
{
  using clock = std::chrono::steady_clock;
  ElectionsOutcome out;
  out.random_seed = seed ^ 0xE1EC7ULL;
  auto config     = FailureConfiguration::all_alive(platform);
  auto t0         = clock::now();
  for (ElectionPolicy policy : table1_heuristics()) {
    Election e = bbr10_election(policy, out.random_seed)(pipeline, platform, mapping, config);
    out.periods.push_back(bbr10_period(pipeline, platform, mapping, config, e));
  }
  auto t1                = clock::now();
  MilpElection milp      = bbr10_milp_election(pipeline, platform, mapping, config, milp_time_limit);
  out.milp_seconds       = std::chrono::duration<double>(clock::now() - t1).count();
  out.heuristics_seconds = std::chrono::duration<double>(t1 - t0).count();
  out.milp_period        = milp.choice.election.sender.empty() ? 0 : milp.choice.period;
  out.milp_status        = milp.status;
  out.milp_bound         = milp.cbc_bound;
  out.milp_variables     = milp.variables;
  out.milp_constraints   = milp.constraints;
  out.milp_nodes         = milp.nodes;
  return out;
}

void add_elections_columns(CampaignRow& row, const ElectionsOutcome& outcome)
{
  for (std::size_t h = 0; h < row.election_periods.size(); ++h)
    row.election_periods[h] = outcome.periods.at(h);
  row.period_milp        = outcome.milp_period > 0 ? RowNumber(outcome.milp_period) : RowNumber::null();
  row.milp_status        = to_string(outcome.milp_status);
  row.milp_bound         = outcome.milp_bound;
  row.milp_variables     = outcome.milp_variables;
  row.milp_constraints   = outcome.milp_constraints;
  row.milp_nodes         = outcome.milp_nodes;
  row.random_seed        = outcome.random_seed;
  row.milp_seconds       = outcome.milp_seconds; // wall-clock: under "timing" (result_output.hpp)
  row.heuristics_seconds = outcome.heuristics_seconds;
}

} // namespace pipesim
