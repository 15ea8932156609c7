// bbr10 Tables 2 and 3 from a campaign of the reliability heuristics, which the registry's metadata picks out.
#include "validation/reports/reliability_tables.hpp"

#include "base/table.hpp"
#include "mappers/mapper.hpp"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <iterator>
#include <map>

namespace pipesim {

namespace {

/// The registry's metadata of a bbr10 reliability heuristic (a row of Table 2), nullptr for any other mapper.
const MapperInfo* heuristic_info(const std::string& name)
{
  const MapperInfo* info = MapperRegistry::instance().find(name);
  return info && info->paper == Paper::bbr10 && info->family == MapperFamily::heuristic ? info : nullptr;
}

bool is_heuristic(const std::string& name) { return heuristic_info(name) != nullptr; }

/// Precondition: is_heuristic(name).
bool is_interval(const std::string& name) { return heuristic_info(name)->mapping == MappingRule::interval; }

/// Table 2's row order (MapperInfo::rank): Small, Snake-c, Snake-w, BCT-c, BCT-w, Bal-c, Bal-w (outer), PartStc,
/// PartStr, PartStw (inner), then PartPrc, PartPrw. Precondition: is_heuristic(name).
int paper_rank(const std::string& name) { return heuristic_info(name)->rank; }

/// The deviations of one heuristic (or class) from the best of its scenario, summarised at the end.
class Accumulator {
public:
  void add(double value, double best) { deviations_.push_back(best > 0 ? relative_deviation(value, best) : 0.0); }
  DeviationSummary stats() const { return summarize_deviations(deviations_); }

private:
  std::vector<double> deviations_;
};

constexpr const char* period_test_key = "mapper_options.period_test";

/// The row's period test: its own column, else the swept option, else worst-case (rows before the option).
PeriodTest row_period_test(const CampaignRow& row)
{
  std::string text = row.period_test;
  if (auto it = row.params.find(period_test_key); text.empty() && it != row.params.end() && it->is_string())
    text = it->get<std::string>();
  return text.empty() ? PeriodTest::worst_case : parse_enum<PeriodTest>(text, "period test");
}

/// F of each heuristic in each scenario (a scenario: a row's parameters but the mapper and the period test).
struct HeuristicResults {
  std::vector<std::string> names;                         // heuristics in order of first appearance
  std::map<std::string, std::map<std::string, double>> f; // scenario -> heuristic -> F (NaN: unusable)
  std::map<std::string, std::string> platform_of;         // scenario -> swept platform size, or "all"
};

HeuristicResults collect_heuristic_results(const CampaignResults& results, ReliabilityView view)
{
  HeuristicResults out;
  for (const CampaignRow& row : results.rows) {
    if (!is_heuristic(row.mapper)) continue;
    if (row_period_test(row) != (is_interval(row.mapper) ? view.interval : view.general)) continue;
    if (std::find(out.names.begin(), out.names.end(), row.mapper) == out.names.end()) out.names.push_back(row.mapper);
    nlohmann::json key = row.params;
    key.erase("mapper");
    key.erase(period_test_key);
    std::string scenario        = key.dump();
    double f                    = row.status == RunStatus::infeasible   ? 1.0
                                  : row.ok() && row.failure_probability ? *row.failure_probability
                                                                        : std::nan("");
    out.f[scenario][row.mapper] = f;
    auto p                      = row.params.find("platform.generate.p");
    out.platform_of[scenario]   = p == row.params.end() ? "all" : p->is_string() ? p->get<std::string>() : p->dump();
  }
  return out;
}

/// The deviations gathered over the usable scenarios: per heuristic (Table 2) and per platform size (Table 3).
struct Deviations {
  std::map<std::string, Accumulator> per_heuristic;
  std::map<std::string, std::pair<Accumulator, Accumulator>> per_platform;
  std::map<std::string, std::pair<int, int>> counts; // platform -> scenarios, ties

  /// One scenario's F per heuristic, on platform size `platform`.
  void add(const std::map<std::string, double>& f, const std::string& platform)
  {
    double best_interval = 2, best_general = 2;
    for (const auto& [name, value] : f)
      (is_interval(name) ? best_interval : best_general) =
          std::min(is_interval(name) ? best_interval : best_general, value);
    for (const auto& [name, value] : f)
      per_heuristic[name].add(value, is_interval(name) ? best_interval : best_general);
    if (best_interval > 1 || best_general > 1) return; // one class absent from the campaign: no Table 3
    double best = std::min(best_interval, best_general);
    auto& row   = per_platform[platform];
    row.first.add(best_interval, best);
    row.second.add(best_general, best);
    auto& c = counts[platform];
    ++c.first;
    if (best_interval == best_general) ++c.second;
  }

  /// Table 3: one row per platform size, in numeric order.
  std::vector<ReliabilityTables::PlatformRow> table3()
  {
    std::vector<std::string> platforms;
    for (const auto& [p, unused] : per_platform)
      platforms.push_back(p);
    std::sort(platforms.begin(), platforms.end(), [](const std::string& a, const std::string& b) {
      return a.size() != b.size() ? a.size() < b.size() : a < b; // numeric order for integers
    });
    std::vector<ReliabilityTables::PlatformRow> rows;
    for (const std::string& p : platforms)
      rows.push_back(
          {p, counts[p].first, per_platform[p].first.stats(), per_platform[p].second.stats(), counts[p].second});
    return rows;
  }
};

} // namespace

std::string ReliabilityView::title() const
{
  if (interval == general) return to_string(interval);
  return fmt::format("interval: {}, general: {}", to_string(interval), to_string(general));
}

ReliabilityTables reliability_tables(const CampaignResults& results, ReliabilityView view)
{
  HeuristicResults collected      = collect_heuristic_results(results, view);
  std::vector<std::string>& names = collected.names;
  std::stable_sort(names.begin(), names.end(),
                   [](const std::string& a, const std::string& b) { return paper_rank(a) < paper_rank(b); });
  ReliabilityTables tables;
  tables.view = view;
  Deviations deviations;
  for (const auto& [scenario, f] : collected.f) {
    bool usable =
        f.size() == names.size() && std::none_of(f.begin(), f.end(), [](auto& x) { return std::isnan(x.second); });
    if (!usable) continue;
    if (std::all_of(f.begin(), f.end(), [](auto& x) { return x.second >= 1; })) { // nothing to compare
      ++tables.all_infeasible;
      continue;
    }
    ++tables.scenarios;
    deviations.add(f, collected.platform_of[scenario]);
  }
  for (const std::string& name : names)
    (is_interval(name) ? tables.interval : tables.general).push_back({name, deviations.per_heuristic[name].stats()});
  tables.table3 = deviations.table3();
  return tables;
}

namespace {
/// max, av., stdv. and best rate of one row.
std::vector<std::string> summary_cells(const DeviationSummary& s)
{
  return {format_number(s.max, ".3g"), format_number(s.mean, ".3g"), format_number(s.sd, ".3g"),
          format_number(100 * s.best_rate, ".1f") + "%"};
}

Table table2(const ReliabilityTables& tables)
{
  Table t;
  for (const char* name : {"heuristic", "max", "av.", "stdv.", "best rate"})
    t.add_column(name);
  for (const auto* group : {&tables.interval, &tables.general})
    for (const auto& h : *group) {
      std::vector<std::string> row{h.name};
      std::ranges::move(summary_cells(h.stats), std::back_inserter(row));
      t.add_row(std::move(row));
    }
  return t;
}

Table table3(const ReliabilityTables& tables)
{
  Table t;
  for (const char* name : {"p", "scenarios", "class", "max", "av.", "stdv.", "best rate", "strictly best", "ties"})
    t.add_column(name);
  for (const auto& row : tables.table3) {
    double ties = row.scenarios > 0 ? static_cast<double>(row.ties) / row.scenarios : 0.0;
    for (const auto& [name, stats] : {std::pair{"interval", &row.interval}, std::pair{"general", &row.general}}) {
      std::vector<std::string> cells{row.p, std::to_string(row.scenarios), name};
      std::ranges::move(summary_cells(*stats), std::back_inserter(cells));
      cells.push_back(format_number(100 * (stats->best_rate - ties), ".1f") + "%");
      cells.push_back(std::to_string(row.ties));
      t.add_row(std::move(cells));
    }
  }
  return t;
}
} // namespace

std::vector<ReliabilityView> reliability_views(const CampaignResults& results)
{
  std::vector<bool> present(enum_values<PeriodTest>().size(), false);
  for (const CampaignRow& row : results.rows)
    if (is_heuristic(row.mapper)) present[static_cast<std::size_t>(row_period_test(row))] = true;
  std::vector<ReliabilityView> views;
  for (PeriodTest test : enum_values<PeriodTest>())
    if (present[static_cast<std::size_t>(test)]) views.push_back({test, test});
  if (views.size() == 2) views.push_back({PeriodTest::worst_case, PeriodTest::all_alive_best_election});
  return views;
}

std::string reliability_tables_markdown(const CampaignResults& results)
{
  std::string out;
  for (ReliabilityView view : reliability_views(results)) {
    ReliabilityTables tables = reliability_tables(results, view);
    if (tables.scenarios == 0) continue;
    out += fmt::format("{}## Period test: {}\n\n", out.empty() ? "" : "\n", view.title());
    out += reliability_tables_markdown(tables);
  }
  return out;
}

std::string reliability_tables_markdown(const ReliabilityTables& tables)
{
  if (tables.view.interval != tables.view.general)
    return fmt::format("Seed 004 Table 3 over {} scenarios: the best interval mapping ({}) and the best general "
                       "mapping ({}), relative to the better of the two\n\nBest rate counts a tie for both classes; "
                       "strictly best leaves ties out.\n\n",
                       tables.scenarios, to_string(tables.view.interval), to_string(tables.view.general)) +
           table3(tables).markdown();
  std::string out = fmt::format("Seed 004 Table 2: each heuristic's F relative to the smallest F of its class, over "
                                "{} scenarios (infeasible: F = 1)\n\n",
                                tables.scenarios);
  out += fmt::format("Left out: {} scenarios where every heuristic is infeasible. Best rate: the scenarios where the "
                     "heuristic reaches its class's smallest F (ties count for every tied heuristic).\n\n",
                     tables.all_infeasible);
  out += table2(tables).markdown();
  out += "\nSeed 004 Table 3: the best interval and the best general mapping, relative to the better of the two\n\n";
  out += "Best rate counts a tie for both classes; strictly best leaves ties out.\n\n";
  return out + table3(tables).markdown();
}

} // namespace pipesim
