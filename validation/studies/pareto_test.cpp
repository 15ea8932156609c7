// The Pareto sweep on the shipped example (fronts worked out by hand), its outputs, and its bad input.
#include "validation/studies/pareto.hpp"

#include "base/input_error.hpp"
#include "mappers/mapper.hpp"

#include <cmath>
#include <fmt/format.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

using namespace pipesim;

namespace {

Scenario example() { return load_scenario(std::string(PIPESIM_SOURCE_DIR) + "/scenarios/examples/pareto.yaml"); }

ParetoSweep sweep_example(std::vector<std::string> mappers = {})
{
  Scenario s = example();
  ParetoOptions o;
  o.mappers = std::move(mappers);
  o.bounds  = {1.5, 2, 2.5, 3};
  return pareto_sweep(s, s.platform.model, o);
}

std::string what(const std::optional<double>& f) { return f ? std::to_string(*f) : "none"; }

} // namespace

/// scenarios/examples/pareto.yaml: w = (10, 40, 10), speeds 20, f = (0.3, 0.3, 0.2, 0.1), b = 10, cards 20.
/// - P_max = 1.5: S_2 alone computes 40/20 = 2 > 1.5: nothing.
/// - P_max = 2: S_2 must be alone. General: {S_1, S_3} on {P1, P3} (compute 20/20 = 1; card out (3 x 2 + 2)/20 = 0.4),
///   {S_2} on {P2, P4} (compute 2): F = 1 - (1 - 0.3 x 0.2)(1 - 0.3 x 0.1) = 1 - 0.94 x 0.97 = 0.0882. Interval: three
///   disjoint sets, best {P1, P2}, {P3}, {P4}: 1 - 0.91 x 0.8 x 0.9 = 0.3448.
/// - P_max = 2.5: [1-2] on {P1, P3} (compute 50/20 = 2.5), [3] on {P2, P4}: 0.0882, both.
/// - P_max = 3: everything on the four (compute 60/20 = 3): 0.3 x 0.3 x 0.2 x 0.1 = 0.0018, both.
TEST(Pareto, ExactFrontsOfTheShippedExample)
{
  ParetoSweep sweep = sweep_example();
  ASSERT_GE(sweep.curves.size(), 2U);
  EXPECT_EQ(sweep.curves[0].mapper, "bbr10.exhaustive");
  EXPECT_EQ(sweep.curves[1].mapper, "bbr10.exhaustive.interval");
  for (const auto& c : sweep.curves) { // every curve a mapper that minimises F, never the given mapping
    EXPECT_EQ(MapperRegistry::instance().info(c.mapper).objective, MapperObjective::failure_probability) << c.mapper;
    EXPECT_NE(c.mapper, explicit_mapper_name);
  }
  std::vector<std::optional<double>> general{std::nullopt, 0.0882, 0.0882, 0.0018};
  std::vector<std::optional<double>> interval{std::nullopt, 0.3448, 0.0882, 0.0018};
  for (std::size_t i = 0; i < 4; ++i) {
    const ParetoPoint& g = sweep.curves[0].points[i];
    const ParetoPoint& v = sweep.curves[1].points[i];
    EXPECT_NEAR(g.failure_probability.value_or(-1), general[i].value_or(-1), 1e-12) << i;
    EXPECT_NEAR(v.failure_probability.value_or(-1), interval[i].value_or(-1), 1e-12) << i;
  }
  EXPECT_EQ(sweep.curves[0].points[0].status, SolveStatus::infeasible);
  EXPECT_EQ(sweep.curves[0].points[1].mapping, "[1]:P1|P3 [2]:P2|P4 [3]:P1|P3");
  EXPECT_EQ(sweep.curves[0].points[1].worst_case_period, 2.0);
  EXPECT_TRUE(sweep.curves[0].points[1].worst_case_exact);
  EXPECT_EQ(sweep.curves[1].points[1].mapping, "[1]:P1|P2 [2]:P3 [3]:P4");
  // Every other mapper's F is at least the exact general front wherever it meets the bound.
  for (const auto& c : sweep.curves)
    for (std::size_t i = 0; i < 4; ++i)
      if (c.points[i].failure_probability) {
        ASSERT_TRUE(general[i]) << c.mapper << " beats the exact front at " << sweep.bounds[i];
        EXPECT_GE(*c.points[i].failure_probability, *general[i] - 1e-12) << c.mapper;
      }
}

TEST(Pareto, AMappingOverTheBoundIsReportedWithoutItsF)
{
  // The explicit mapping (named, never a default) puts every stage on the four processors: worst case 3.
  Scenario s = parse_scenario(R"(pipeline: {w: [10, 40, 10], delta: [2, 3, 3, 2]}
platform:
  processors:
    - {name: P1, speed: 20, failure_probability: 0.3}
    - {name: P2, speed: 20, failure_probability: 0.3}
  bandwidth: 10
mapping:
  - {stages: [1, 3], replicas: [P1, P2]}
simulation: {model: multi-port}
)",
                              "<explicit>");
  ParetoOptions o;
  o.mappers            = {"explicit"};
  o.bounds             = {2, 3};
  ParetoSweep sweep    = pareto_sweep(s, s.platform.model, o);
  const ParetoCurve* c = sweep.curve("explicit");
  ASSERT_NE(c, nullptr);
  EXPECT_FALSE(c->points[0].meets_bound);
  EXPECT_FALSE(c->points[0].failure_probability) << what(c->points[0].failure_probability);
  EXPECT_EQ(c->points[0].worst_case_period, 3.0);
  EXPECT_NEAR(c->points[1].failure_probability.value_or(-1), 0.09, 1e-12);
  std::string table = pareto_table(sweep);
  EXPECT_NE(table.find("violates"), std::string::npos) << table;
  EXPECT_NE(table.find("0.09"), std::string::npos) << table;
}

TEST(Pareto, JsonTableAndGnuplotData)
{
  ParetoSweep sweep  = sweep_example({"bbr10.exhaustive"});
  sweep.command_line = "pipesim pareto pareto.yaml --bounds 1.5,2,2.5,3";
  nlohmann::json j   = nlohmann::json(sweep);
  EXPECT_EQ(j["bounds"], nlohmann::json::array({1.5, 2.0, 2.5, 3.0}));
  EXPECT_TRUE(j["exact_front"]["general"][0].is_null());
  EXPECT_NEAR(j["exact_front"]["interval"][1].get<double>(), 0.3448, 1e-12);
  EXPECT_EQ(j["mapper_seed"], 42);
  EXPECT_EQ(j["command"], sweep.command_line);
  EXPECT_EQ(j["mappers"][0]["points"][1]["mapping"], "[1]:P1|P3 [2]:P2|P4 [3]:P1|P3");
  std::string table = pareto_table(sweep);
  EXPECT_NE(table.find("1.5         infeasible        infeasible\n"), std::string::npos) << table;
  EXPECT_NE(table.find("2           0.0882            0.3448\n"), std::string::npos) << table;
  std::string data = pareto_gnuplot_data(sweep);
  EXPECT_EQ(data.substr(0, data.find("\n\n\n")), "# bbr10.exhaustive: P_max F\n2 0.08820000000000006\n"
                                                 "2.5 0.08820000000000006\n3 0.0018000000000000238");
}

TEST(Pareto, BadInputNamesTheValue)
{
  EXPECT_EQ(pareto_linear_bounds(1, 4, 7), (std::vector<double>{1, 1.5, 2, 2.5, 3, 3.5, 4}));
  EXPECT_EQ(pareto_linear_bounds(2, 2, 1), std::vector<double>{2});
  auto message = [](auto&& f) {
    try {
      f();
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_EQ(message([] { pareto_linear_bounds(0, 4, 3); }), "--from 0: a period bound must be > 0");
  EXPECT_EQ(message([] { pareto_linear_bounds(2, 1, 3); }), "--to 1: must be a period >= --from (2)");
  EXPECT_EQ(message([] { pareto_linear_bounds(1, 2, 0); }), "--steps 0: expected at least 1");
  EXPECT_EQ(message([] { pareto_linear_bounds(1, 2, 100'000'000); }),
            "--steps 100000000: at most 10000 bounds (each one runs every mapper)");
  EXPECT_EQ(pareto_linear_bounds(1, 2, 10'000).size(), 10'000u);
  EXPECT_EQ(message([] { check_pareto_bounds({1, -0.5}); }), "--bounds -0.5: a period bound must be > 0");
  // a sweep never drops an end: one step cannot reach --to, several between equal ends repeat one bound
  EXPECT_EQ(message([] { pareto_linear_bounds(1, 4, 1); }),
            "--steps 1: one bound cannot go from --from 1 to --to 4: expected at least 2 steps (or --bounds 1 for "
            "that bound alone)");
  EXPECT_EQ(message([] { pareto_linear_bounds(2, 2, 3); }),
            "--steps 3: --from and --to are both 2, so the 3 bounds would all be 2: expected --steps 1 (or a --to "
            "above --from)");
  EXPECT_EQ(message([] { pareto_linear_bounds(1, 2, -4); }), "--steps -4: expected at least 1");
  EXPECT_EQ(message([] { pareto_linear_bounds(std::nan(""), 2, 3); }), "--from nan: a period bound must be > 0");
  EXPECT_EQ(message([] { pareto_linear_bounds(1, std::nan(""), 3); }), "--to nan: must be a period >= --from (1)");
  EXPECT_EQ(message([] { pareto_linear_bounds(1, INFINITY, 3); }), "--to inf: must be a period >= --from (1)");
  EXPECT_EQ(message([] {
              check_pareto_bounds({1, 2, 1});
            }),
            "--bounds 1,2,1: the bound 1 is given twice: expected each bound once");
  EXPECT_EQ(message([] { check_pareto_bounds({}); }),
            "--bounds: no period bound: give --bounds or --from, --to and --steps");
  EXPECT_NE(message([] { sweep_example({"no.such.mapper"}); }).find("no.such.mapper"), std::string::npos);
  EXPECT_NE(message([] {
              sweep_example({"explicit"});
            }).find("--mappers explicit: mapper 'explicit' cannot handle this problem"),
            std::string::npos);
  Scenario one_port         = example();
  one_port.simulation.model = CommModel::one_port;
  ParetoOptions o;
  o.bounds = {2};
  EXPECT_NE(message([&] {
              pareto_sweep(one_port, one_port.platform.model, o);
            }).find("no registered mapper accepts this problem"),
            std::string::npos);
}

TEST(Pareto, PlotWithoutMappersDrawsEachDistinctFrontOnceWithTheKeyOutside)
{
  ParetoSweep sweep = sweep_example(); // every registered mapper that accepts the problem
  GnuplotPlot plot  = pareto_plot(sweep);
  EXPECT_NE(plot.commands.find("set key outside right top box"), std::string::npos);
  // one series (steps + points) per distinct front: fewer titles than curves, the exact general front first, named
  // with the count of the curves that have the same front
  std::size_t titles = 0;
  for (auto pos = plot.commands.find(" title '"); pos != std::string::npos;
       pos      = plot.commands.find(" title '", pos + 1))
    ++titles;
  EXPECT_LE(titles, 2 + pareto_plotted_heuristics);
  EXPECT_LT(titles, sweep.curves.size());
  EXPECT_NE(plot.commands.find("lc rgb 'black' dt 1 lw 4 title 'bbr10.exhaustive (+"), std::string::npos)
      << plot.commands;
  EXPECT_EQ(plot.data, pareto_gnuplot_data(sweep)); // the data keeps every curve
}

TEST(Pareto, PlotOfManyDistinctFrontsKeepsTheBestAndSaysSo)
{
  // ten heuristics with F = 0.01 k at both bounds (k = 10..1), one without any F: the eight best are k = 1..8
  ParetoSweep sweep;
  sweep.scenario = "many";
  sweep.bounds   = {1, 2};
  for (int k = 10; k >= 1; --k) {
    ParetoCurve c{fmt::format("h{}", k), false, {}};
    for (double b : sweep.bounds) {
      ParetoPoint pt;
      pt.period_bound        = b;
      pt.failure_probability = 0.01 * k;
      c.points.push_back(pt);
    }
    sweep.curves.push_back(c);
  }
  sweep.curves.push_back({"none", false, {ParetoPoint{}, ParetoPoint{}}});
  GnuplotPlot plot = pareto_plot(sweep);
  EXPECT_NE(plot.commands.find("'the 8 best of 10 distinct heuristic fronts by mean F over the bounds"),
            std::string::npos)
      << plot.commands;
  for (int k = 1; k <= 10; ++k) // h10 is block 0, h1 block 9
    EXPECT_EQ(plot.commands.find(fmt::format("index {} using 1:2 with steps", 10 - k)) != std::string::npos, k <= 8)
        << k;
  // the best first, in the first series style
  EXPECT_NE(plot.commands.find("'pareto.dat' index 9 using 1:2 with steps lc rgb '#4e79a7' dt 1 lw 1.5 title 'h1'"),
            std::string::npos)
      << plot.commands;
}

// `pipesim pareto scenarios/examples/pareto.yaml --out DIR` (one bound, the scenario's period_bound) ended in an
// internal error: gnuplot refused "set xrange [2:2]". One bound gets a range around it.
TEST(Pareto, PlotOfOneBoundHasAnXRangeAroundIt)
{
  ParetoSweep sweep;
  sweep.scenario = "one";
  sweep.bounds   = {2};
  ParetoPoint pt;
  pt.period_bound        = 2;
  pt.failure_probability = 0.1;
  sweep.curves.push_back({"h", false, {pt}});
  EXPECT_NE(pareto_plot(sweep).commands.find("set xrange [1.8:2.2]\n"), std::string::npos)
      << pareto_plot(sweep).commands;
}
