// Tests of the `explicit` mapper: the given mapping comes back validated, with its analytic period or F.
#include "mappers/explicit_mapper.hpp"

#include "base/input_error.hpp"

#include <gtest/gtest.h>

namespace pipesim {
namespace {

/// n = 3, w = (4, 12, 8), delta = (2, 1, 0, 3); P0..P3 with speeds 4, 1, 8, 2 and f 0.1, 0, 0.2, 0.5; b = 1.
Problem example()
{
  Problem problem;
  problem.pipeline = Pipeline{{4, 12, 8}, {2, 1, 0, 3}};
  std::vector<Processor> processors(4);
  const double speeds[] = {4, 1, 8, 2};
  const double fails[]  = {0.1, 0, 0.2, 0.5};
  for (std::size_t u = 0; u < processors.size(); ++u) {
    processors[u].name                = "P" + std::to_string(u);
    processors[u].speed               = speeds[u];
    processors[u].failure_probability = fails[u];
  }
  problem.platform = Platform(processors, "in", "out", 1.0);
  // S1 on P0, S2 on P2, S3 on P3.
  problem.explicit_mapping = make_interval_mapping({{1, 1}, {2, 2}, {3, 3}}, {0, 2, 3});
  return problem;
}

TEST(ExplicitMapper, ReturnsTheMappingWithItsEq1Period)
{
  Problem problem     = example();
  MapperResult result = run_mapper("explicit", problem, MapperOptions{});
  EXPECT_EQ(result.status, SolveStatus::feasible);
  ASSERT_EQ(result.mapping.m(), 3);
  for (int j = 0; j < 3; ++j)
    EXPECT_EQ(result.mapping.interval(j).replicas, problem.explicit_mapping->interval(j).replicas);
  // br07 eq. (1), b = 1: S1 on s=4: 2 + 4/4 + 1 = 4; S2 on s=8: 1 + 12/8 + 0 = 2.5; S3 on s=2: 0 + 8/2 + 3 = 7.
  EXPECT_DOUBLE_EQ(result.objective, 7.0);
  EXPECT_DOUBLE_EQ(result.statistics.at("period"), 7.0);
}

TEST(ExplicitMapper, MinFailureProbabilityGivesBbr10Eq2)
{
  Problem problem                = example();
  problem.objective.kind         = Objective::Kind::min_failure_probability;
  problem.objective.period_bound = 6;
  MapperResult result            = run_mapper("explicit", problem, MapperOptions{});
  EXPECT_EQ(result.status, SolveStatus::feasible);
  // bbr10 eq. (2), one processor per interval: F = 1 - (1 - 0.1)(1 - 0.2)(1 - 0.5) = 1 - 0.36 = 0.64.
  EXPECT_NEAR(result.objective, 0.64, 1e-12);
  EXPECT_EQ(result.statistics.at("period_bound_met"), 0.0); // period 7 > 6
}

TEST(ExplicitMapper, RefusesWithoutAMappingAndRejectsMalformedOnes)
{
  Problem problem = example();
  ExplicitMapper mapper;
  EXPECT_FALSE(mapper.refuses(problem));
  problem.explicit_mapping.reset();
  EXPECT_EQ(mapper.refuses(problem).value_or(""), "the problem has no explicit mapping (give one in the scenario)");
  // Stage 3 is not covered: validate() says so.
  problem.explicit_mapping = make_interval_mapping({{1, 1}, {2, 2}}, {0, 2});
  EXPECT_THROW(run_mapper("explicit", problem, MapperOptions{}), InputError);
}

} // namespace
} // namespace pipesim
