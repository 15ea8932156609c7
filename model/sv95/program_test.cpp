// sv95's tasks as programs: flops per processor, f_exec and the redistribution matrices, by hand.
#include "model/sv95/program.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

using namespace pipesim;
using ::testing::ElementsAre;

TEST(TaskProgram, FlopsPerHostAndExecPolynomial)
{
  TaskProgram program{.sequential = 2, .parallel = 12, .overhead = 0.5};
  EXPECT_EQ(program.flops_per_host(4), 2 + 3 + 2);
  CostFunction f = program_exec(program, 0.5); // 4 + 24 / p + p
  EXPECT_EQ(f(4), 4 + 6 + 4);
}

TEST(TaskProgram, BlockRedistributionSendsTheOverlaps)
{
  // 6 bytes from 2 to 3 processors: senders hold [0, 3) and [3, 6), receivers [0, 2), [2, 4), [4, 6)
  TaskProgram program{.output = 6};
  EXPECT_THAT(redistribution_bytes(program, 2, 3), ElementsAre(2, 1, 0, 0, 1, 2));
  EXPECT_THAT(redistribution_bytes(program, 3, 3), ElementsAre(2, 0, 0, 0, 2, 0, 0, 0, 2));
  EXPECT_THAT(internal_redistribution_bytes(program, 3), ElementsAre(0, 0, 0, 0, 0, 0, 0, 0, 0));
}

TEST(TaskProgram, TransposeIsAnAllToAll)
{
  TaskProgram program{.output = 8, .distribution = Distribution::transpose};
  EXPECT_THAT(redistribution_bytes(program, 2, 4), ElementsAre(1, 1, 1, 1, 1, 1, 1, 1));
  EXPECT_THAT(internal_redistribution_bytes(program, 2), ElementsAre(0, 2, 2, 0));
}
