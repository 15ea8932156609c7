// bbr10 §7.1 / Table 1, one instance: the four election heuristics against the §5 MILP on one mapping.
#pragma once

#include "mappers/mapper.hpp"
#include "model/bbr10/election.hpp"
#include "model/mapping.hpp"
#include "model/pipeline.hpp"
#include "platforms/platform.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace pipesim {

struct CampaignRow;

/// The heuristics of Table 1, in the paper's order.
const std::vector<ElectionPolicy>& table1_heuristics();

/// The row column of a heuristic's period: "period_" + name with '-' as '_' ("period_max_bout").
std::string election_period_column(const std::string& heuristic);

struct ElectionsOutcome {
  std::vector<double> periods; // bbr10_period of each table1_heuristics() election, same order
  std::uint64_t random_seed = 0;
  double milp_period        = 0; // bbr10_period of CBC's election (0 when CBC found none)
  SolveStatus milp_status   = SolveStatus::time_limit;
  double milp_bound         = 0; // CBC's best bound
  int milp_variables        = 0;
  int milp_constraints      = 0;
  int milp_nodes            = 0;
  double milp_seconds       = 0;
  double heuristics_seconds = 0; // the four elections and their Algorithm 1 evaluations together
};

/// Contract.
/// - Source: bbr10 §7.1: "we have simulated consensus scenarios on randomly generated mappings [...] We compare
///   the results with the optimal period obtained by the mixed integer linear program presented in Section 5". The
///   failure configuration is every processor alive (§7.1 draws no failures). Random is seeded with
///   `seed ^ 0xE1EC7` (a stream apart from the generators' Rng(seed)); MaxBout, MinComm and MinNbProcs are
///   deterministic (docs/bbr10-periods.md).
/// - Accepts: what bbr10_milp_election accepts (active replication, single processors, multi-port periods).
/// - Complexity: the MILP's (NP-hard, bounded by `milp_time_limit` seconds) plus four O(m log m + sum alive x
///   receivers) elections.
ElectionsOutcome run_elections(const Pipeline& pipeline, const Platform& platform, const Mapping& mapping,
                               std::uint64_t seed, double milp_time_limit);

/// Fills the outcome's columns of a campaign row: period_<heuristic> (4), period_milp, milp_status, milp_bound,
/// milp_variables, milp_constraints, milp_nodes, random_seed, and the timing columns milp_seconds and
/// heuristics_seconds (wall-clock, docs/reports.md "Determinism").
void add_elections_columns(CampaignRow& row, const ElectionsOutcome& outcome);

} // namespace pipesim
