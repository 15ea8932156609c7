// bbr10 §7.2, Tables 2 and 3, computed from a campaign of the reliability heuristics (validation/campaigns/
// bbr10-tables23*.yaml): each heuristic's failure probability relative to the best of its class, and interval
// against general mappings.
#pragma once

#include "mappers/mapper.hpp"
#include "validation/reports/elections_table.hpp"
#include "validation/reports/report_data.hpp"

#include <string>
#include <vector>

namespace pipesim {

/// The period test (mapper_options.period_test) of each class of heuristics in the tables. Table 3 may pair the
/// interval heuristics under one test with the general ones under the other: bbr10's own experiment compares its
/// [3]'s interval heuristics, whose period is eq. (1) (the worst case), with general heuristics that test the
/// all-alive best election.
struct ReliabilityView {
  PeriodTest interval = PeriodTest::worst_case;
  PeriodTest general  = PeriodTest::worst_case;
  std::string title() const; // "worst-case", or "interval: worst-case, general: all-alive-best-election"
};

struct ReliabilityTables {
  ReliabilityView view;
  int scenarios      = 0; // scenarios with a row for every heuristic, at least one feasible
  int all_infeasible = 0; // scenarios where every heuristic is infeasible: left out (every F would tie at 1)
  struct Heuristic {
    std::string name;
    DeviationSummary stats;
  };
  std::vector<Heuristic> interval; // Table 2, left: the .interval heuristics against the best of them
  std::vector<Heuristic> general;  // Table 2, right: class 1 general and class 2 against the best of them
  struct PlatformRow {
    std::string p; // the swept platform size, or "all"
    int scenarios = 0;
    DeviationSummary interval, general; // Table 3: each class's best against the best of both
    int ties = 0;                       // scenarios where both classes reach the same F (both count as best)
  };
  std::vector<PlatformRow> table3;
};

/// Contract.
/// - Statistics: Table 1's (DeviationSummary, validation/reports/elections_table.hpp) on (F - F_best) / F_best, best
/// when the
///   deviation is <= best_tolerance.
/// - Rows: the campaign's rows of `bbr10.*` reliability heuristics (bbr10.best*, bbr10.exhaustive* and other mappers
///   are ignored) whose period test is the view's for their class (the row's `period_test`; else the swept
///   `mapper_options.period_test`; else worst-case, the rows written before the option). A scenario is a row's swept
///   parameters without `mapper` and `mapper_options.period_test`. F: the row's failure_probability when
///   `ok`, 1 when `infeasible` (as Algorithm 11: "if a subset is not assigned to any processor, set F_t to 1");
///   scenarios with another status (error, crashed, timeout) for some heuristic are left out and not counted.
/// - Classes: names ending in `.interval` (the paper's interval heuristics) and the others (general).
/// - Table 2 rows in the paper's order (Small, Snake-c/w, BCT-c/w, Bal-c/w, each with PartStc, PartStr, PartStw;
///   then PartPrc, PartPrw). Best rate counts every tied heuristic. Scenarios where every heuristic is infeasible
///   are left out (all_infeasible): the paper's rates (most between 1% and 5%) cannot include such ties.
/// - Table 3 rows by the swept `platform.generate.p` (one row "all" when it is not swept), with the ties.
ReliabilityTables reliability_tables(const CampaignResults& results, ReliabilityView view = {});

/// The views of a campaign: each period test its rows use (both classes under it, worst-case first), then, when it
/// has both, interval heuristics under worst-case against general heuristics under all-alive-best-election.
std::vector<ReliabilityView> reliability_views(const CampaignResults& results);

/// The tables as Markdown (the paper's layout: max, av., stdv., best rate); Table 3 only for a view that pairs two
/// tests (its Table 2 halves are those of the single-test views).
std::string reliability_tables_markdown(const ReliabilityTables& tables);

/// Every view of reliability_views, each under a heading naming its period tests; empty when no view has a usable
/// scenario.
std::string reliability_tables_markdown(const CampaignResults& results);

} // namespace pipesim
