// The shipped scenario of hedpm's §4.1 case study: it holds the paper's instance, and HeDPM maps it as the
// mappers' own case-study tests say (mappers/hedpm/hedpm_test.cpp).
#include "mappers/mapper.hpp"
#include "model/hedpm/production_time.hpp"
#include "scenarios/scenario.hpp"

#include <gtest/gtest.h>

namespace pipesim {
namespace {

TEST(HedpmCaseStudyScenario, HoldsThePapersInstanceAndLoadsForTheHedpmMappers)
{
  Scenario s = load_scenario(std::string(PIPESIM_SOURCE_DIR) + "/scenarios/examples/hedpm-case-study.yaml");
  ASSERT_EQ(s.platform.kind, PlatformSpec::Kind::model);
  Problem problem;
  problem.pipeline         = s.pipeline;
  problem.platform         = s.platform.model;
  const Platform& platform = problem.platform;
  EXPECT_EQ(s.mapper, "hedpm");
  EXPECT_EQ(s.pipeline.w, (std::vector<double>{6.01, 1.32, 2.53, 4.04, 20.35, 28.16, 19.17, 12.88}));
  EXPECT_EQ(s.pipeline.delta, std::vector<double>(9, 10.0));
  ASSERT_EQ(platform.p(), 8);
  EXPECT_EQ(platform.speed(0), 27.41);
  EXPECT_EQ(platform.speed(7), 14.18);
  for (int u = 0; u < platform.nodes(); ++u)
    for (int v = 0; v < platform.nodes(); ++v) {
      if (u == v || (u == platform.in() && v == platform.out()) || (u == platform.out() && v == platform.in()))
        continue;
      bool slow = u == 0 || v == 0; // every link of P1, P_in and P_out included
      EXPECT_EQ(platform.bandwidth(u, v), slow ? 5.0 : 10.0) << u << " " << v;
      EXPECT_EQ(platform.latency(u, v), slow ? 0.2 : 0.1) << u << " " << v;
    }
  MapperResult result = run_mapper("hedpm", problem, s.mapper_options);
  EXPECT_EQ(to_text(result.mapping, platform), "[1-3]:P8 [4]:P1|P5|P2/deal [5]:P3 [6]:P4 [7]:P6 [8]:P7");
  EXPECT_EQ(result.objective, hedpm_production_time(problem.pipeline, platform, result.mapping));
  EXPECT_NEAR(run_mapper("hedpm.exact", problem, s.mapper_options).objective, 28.16 / 23.34 + 2.2, 1e-12);
}

} // namespace
} // namespace pipesim
