// The campaign table of the period after crashes (period_after_crashes_table.hpp).
#include "validation/reports/period_after_crashes_table.hpp"

#include "base/table.hpp"
#include "validation/evaluation/statistics.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <map>

namespace pipesim {

namespace {

struct Pooled {
  int mappings = 0, measured = 0, over = 0, one_left = 0, one_left_over = 0, simulated_over = 0;
  double max_ratio = 0;
};

std::string rate(int k, int n)
{
  if (n == 0) return "-";
  ProportionInterval ci = wilson_interval(k, n, z_95);
  return fmt::format("{}/{} = {:.1f}% [{:.1f}, {:.1f}]", k, n, 100.0 * k / n, 100 * ci.low, 100 * ci.high);
}

} // namespace

std::string period_after_crashes_markdown(const CampaignResults& results)
{
  std::map<std::pair<bool, std::string>, Pooled> groups; // (worst case above P_max, p)
  for (const CampaignRow& row : results.rows) {
    if (!row.after_crash_measured || !row.period_bound) continue;
    // the worst-case test's own bound (reliability heuristics), else the worst-case period
    auto worst = row.worst_case_bound ? row.worst_case_bound : row.worst_case_period;
    bool above = worst && *worst > *row.period_bound * (1 + 1e-12);
    auto p     = row.params.find("platform.generate.p");
    Pooled& g  = groups[{above, p == row.params.end() ? "all" : p->dump()}];
    ++g.mappings;
    g.measured += *row.after_crash_measured;
    g.over += row.after_crash_over_bound.value_or(0);
    g.one_left += row.one_left_runs.value_or(0);
    g.one_left_over += row.one_left_over_bound.value_or(0);
    g.simulated_over += row.after_crash_sim_over_bound.value_or(0);
    g.max_ratio = std::max(g.max_ratio, row.after_crash_max_ratio.value_or(0));
  }
  if (groups.empty()) return "";
  Table t;
  for (const char* name :
       {"worst case", "p", "mappings", "runs above P_max (95% Wilson)", "one replica left: above P_max (95% Wilson)",
        "largest period / P_max", "simulated above P_max"})
    t.add_column(name);
  for (const auto& [key, g] : groups)
    t.add_row({key.first ? "above P_max" : "within P_max", key.second, std::to_string(g.mappings),
               rate(g.over, g.measured), rate(g.one_left_over, g.one_left), format_number(g.max_ratio, ".4g"),
               rate(g.simulated_over, g.measured)});
  return "Period after the last crash against P_max: the steady state of the configuration each survived Monte Carlo "
         "run ends in (Algorithm 1 with the series' election, what the simulated run settles at), and in the last "
         "column the period measured on the simulated run (its crashes' transient included). Mappings whose "
         "worst-case period is above P_max are accepted only by the paper's all-alive test.\n\n" +
         t.markdown();
}

} // namespace pipesim
