// The Markdown of hedpm's figures, compared whole on a made-up set of tables (no campaign needed).
#include "validation/reports/hedpm_tables.hpp"

#include <gtest/gtest.h>

using namespace pipesim;

TEST(HedpmTablesMarkdown, EveryTableWholeText)
{
  HedpmTables t;
  t.reference = "hedpm.exhaustive";
  t.distances.push_back({"hedpm", HedpmMeasure::model, 3, 0.125, 0.5, 1, {1, 0, 1}});
  t.means.push_back({"f", 10, "hedpm", HedpmMeasure::model, 2, 2.0});
  t.means.push_back({"f", 10, "br07.h7b-bsc", HedpmMeasure::model, 2, 3.0});
  t.speedups.push_back({"hedpm", HedpmMeasure::event_graph, 2, 1.0, 1.5, 2.0, 1.25});
  t.ratios.push_back({"hedpm", 4, 1, 0.5, 1.0, 1.0, 0.875});
  // 2.0 < 3.0 * (1 - 1e-9): hedpm is below BSC at P = 10 by the model; the event graph has no means
  EXPECT_EQ(
      hedpm_tables_markdown(t),
      "# Seed 002 figures (docs/reproduction-hedpm.md)\n\n"
      "## Distance to the optimum (seed 002 Fig. 1): period / hedpm.exhaustive - 1\n\n"
      "| mapper | measure | instances | mean | max | optimal | histogram: 0, 20, 40, ..., 120, >130 % |\n"
      "|---|---|---|---|---|---|---|\n"
      "| hedpm | HeDPM model | 3 | 12.50 % | 50.00 % | 1 | 1, 0, 1 |\n\n"
      "## Mean period per processor count against BSC (seed 002 Figs. 2-3)\n"
      "\n### f\n\n"
      "| P | hedpm (HeDPM model) | hedpm (event graph) | br07.h7b-bsc (HeDPM model) | br07.h7b-bsc (event graph) |\n"
      "|---|---|---|---|---|\n"
      "| 10 | 2.0000 | - | 3.0000 | - |\n\n"
      "- hedpm below BSC by the HeDPM model: P = 10\n"
      "- hedpm below BSC by the event graph: P = no data\n\n"
      "## Speedup over the explicit mapping (seed 002 §5.3, Table 4): explicit period / period\n\n"
      "| mapper | measure | instances | min | median | mean | max |\n|---|---|---|---|---|---|---|\n"
      "| hedpm | event graph | 2 | 1.000 | 1.500 | 1.250 | 2.000 |\n\n"
      "## HeDPM's model against the exact period: hedpm_period / event_graph_period\n\n"
      "| mapper | rows | ratio != 1 | min | median | mean | max |\n|---|---|---|---|---|---|---|\n"
      "| hedpm | 4 | 1 | 0.500000 | 1.000000 | 0.875000 | 1.000000 |\n");
}
