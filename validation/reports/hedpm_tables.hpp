// hedpm §5's figures computed from a campaign of the HeDPM mappers (validation/campaigns/hedpm-*.yaml): Fig. 1's
// distances to the optimum, Figs. 2-3's mean periods per processor count against BSC, and HeDPM's model against the
// exact period, each by HeDPM's model, the event graph and the simulation (docs/reproduction-hedpm.md).
#pragma once

#include "validation/reports/report_data.hpp"

#include <string>
#include <vector>

namespace pipesim {

/// The three ways a row measures a mapping: HeDPM's prediction (hedpm_period, hedpm eqs. (1)-(2)), the exact
/// one-port period (event_graph_period) and the simulated period (simulated_period).
enum class HedpmMeasure { model, event_graph, simulation };
const char* to_string(HedpmMeasure measure);
inline constexpr HedpmMeasure hedpm_measures[] = {HedpmMeasure::model, HedpmMeasure::event_graph,
                                                  HedpmMeasure::simulation};

/// Fig. 1: mapper against the reference (the optimum) on the same instances, (period / reference) - 1.
struct HedpmDistance {
  std::string mapper;
  HedpmMeasure measure = HedpmMeasure::model;
  int instances        = 0;
  double mean          = 0;
  double max           = 0;
  int optimal          = 0;   // distance <= 1e-9
  std::vector<int> histogram; // bins 20 % wide centred on 0, 20, 40, ... %; the last bin holds everything above
};

/// Figs. 2-3: a mapper's mean period over the ok rows of one family (the swept values other than the mapper, the seed
/// and the processor count, as text) at one processor count.
struct HedpmMean {
  std::string family;
  int p = 0;
  std::string mapper;
  HedpmMeasure measure = HedpmMeasure::model;
  int runs             = 0;
  double mean          = 0;
};

/// HeDPM's model against the exact period: hedpm_period / event_graph_period over a mapper's ok rows.
struct HedpmRatio {
  std::string mapper;
  int rows      = 0;
  int differ    = 0; // |ratio - 1| > 1e-9
  double min    = 0;
  double median = 0;
  double max    = 0;
  double mean   = 0;
};

/// hedpm §5.3 (Ferret): the explicit mapping's period over a mapper's on the same instances (the speedup).
struct HedpmSpeedup {
  std::string mapper;
  HedpmMeasure measure = HedpmMeasure::model;
  int instances        = 0;
  double min = 0, median = 0, max = 0, mean = 0;
};

struct HedpmTables {
  std::string reference; // the optimum's mapper for Fig. 1 (empty when the campaign has none)
  std::vector<HedpmDistance> distances;
  std::vector<HedpmMean> means; // empty unless the campaign has br07.h7b-bsc rows and sweeps platform.generate.p
  std::vector<HedpmRatio> ratios;
  std::vector<HedpmSpeedup> speedups; // when the campaign has `explicit` rows (hedpm-ferret.yaml's orderly mapping)
};

/// Contract.
/// - Campaigns: only those with rows of a HeDPM mapper (a name starting with `hedpm`, whatever the row's status);
///   the tables of any other campaign are empty, although its one-port rows have hedpm_period.
/// - Instances: a row's swept parameters without `mapper` (the seed included); only `ok` rows count.
/// - Fig. 1: the reference is `hedpm.exhaustive` when the campaign has it, else `hedpm.exact`; every other mapper whose
///   objective is HeDPM's production time (MapperObjective::production_time: hedpm*) is compared with it on the
///   instances where both rows have the measure.
/// - Figs. 2-3: when the campaign has `br07.h7b-bsc` rows and sweeps `platform.generate.p`: means per family, P,
///   mapper (hedpm*, br07.h7b-bsc) and measure.
/// - Speedups: when the campaign has `explicit` rows, explicit period / mapper period per instance, for every other
///   mapper and measure.
/// - Ratios: per mapper, over the ok rows that have both hedpm_period and event_graph_period.
HedpmTables hedpm_tables(const CampaignResults& results);

/// The processor counts at which `mapper`'s mean is below BSC's in `family` by `measure` by more than 1e-9
/// relative (a tie is not better), as ranges ("40-100").
std::string hedpm_better_than_bsc(const HedpmTables& tables, const std::string& family, const std::string& mapper,
                                  HedpmMeasure measure);

/// The tables as Markdown; empty when the campaign has no HeDPM rows (the report then shows no HeDPM section).
std::string hedpm_tables_markdown(const HedpmTables& tables);

} // namespace pipesim
