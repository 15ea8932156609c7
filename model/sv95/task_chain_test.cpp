// Tests of sv95's task chain: the §5 cost functions (polynomials and tables), memory in processors, the
// structural checks and the search for negative times; the seeded generator.
#include "model/sv95/task_chain.hpp"

#include "base/input_error.hpp"
#include "model/sv95/chain_generator.hpp"

#include <cmath>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace pipesim {
namespace {

using ::testing::HasSubstr;

TaskChain two_tasks()
{
  TaskChain chain;
  chain.tasks = {Task{"a", CostFunction::polynomial(1, 12, 0.5), 1, 0, true},
                 Task{"b", CostFunction::polynomial(0, 6), 1, 0, false}};
  chain.icom  = {CostFunction::polynomial(1)};
  chain.ecom  = {CommFunction::polynomial(1, 2, 3, 4, 5)};
  return chain;
}

TEST(Sv95TaskChain, PolynomialsOfSection5)
{
  // f_exec(3) = (1 + 12/3) + 0.5 * 3 = 6.5; f_ecom(2, 3) = (((1 + 2/2) + 3/3) + 4 * 2) + 5 * 3 = 26
  TaskChain chain = two_tasks();
  EXPECT_EQ(chain.task(1).exec(3), 6.5);
  EXPECT_EQ(chain.task(2).exec(4), 1.5);
  EXPECT_EQ(chain.ecom_after(1)(2, 3), 26.0);
  EXPECT_EQ(chain.icom_after(1)(7), 1.0);
  EXPECT_EQ(chain.input(5), 0.0); // no input time by default
  EXPECT_EQ(chain.task_name(2), "b");
  chain.tasks[1].name = "";
  EXPECT_EQ(chain.task_name(2), "t2");
  EXPECT_NO_THROW(chain.validate());
}

TEST(Sv95TaskChain, TablesAreInfiniteOutsideTheirRange)
{
  CostFunction f = CostFunction::values({5, 4, 3}, 2); // f(2) = 5, f(3) = 4, f(4) = 3
  EXPECT_TRUE(std::isinf(f(1)));
  EXPECT_EQ(f(2), 5.0);
  EXPECT_EQ(f(4), 3.0);
  EXPECT_TRUE(std::isinf(f(5)));
  EXPECT_EQ(f.last_p(), 4);
  CommFunction g = CommFunction::values({{1, 2}, {3, 4}}, 1, 2); // rows ps = 1, 2; columns pr = 2, 3
  EXPECT_EQ(g(1, 2), 1.0);
  EXPECT_EQ(g(2, 3), 4.0);
  EXPECT_TRUE(std::isinf(g(3, 2)));
  EXPECT_TRUE(std::isinf(g(1, 1)));
}

TEST(Sv95TaskChain, MemoryInProcessors)
{
  EXPECT_EQ(processors_for_memory(0, 1), 0);
  EXPECT_EQ(processors_for_memory(2.5, 1), 3);
  EXPECT_EQ(processors_for_memory(0.1 + 0.2, 0.1), 3); // 3.0000000000000004 is 3
  EXPECT_EQ(processors_for_memory(4, 2), 2);
  TaskChain chain        = two_tasks();
  chain.tasks[0].p_min   = 2;
  chain.tasks[0].memory  = 3.5;
  chain.processor_memory = 1;
  chain.tasks[1].memory  = 1;
  EXPECT_EQ(task_p_min(chain, 1), 4); // max(2, ceil(3.5))
  EXPECT_EQ(task_p_min(chain, 2), 1);
}

TEST(Sv95TaskChain, ValidateNamesWhatIsWrong)
{
  auto message = [](const TaskChain& chain) {
    try {
      chain.validate();
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  TaskChain chain = two_tasks();
  chain.icom.clear();
  EXPECT_EQ(message(chain), "key 'task_chain.tasks': 2 tasks need 1 f_icom and 1 f_ecom functions, got 0 and 1");
  chain                = two_tasks();
  chain.tasks[1].p_min = 0;
  EXPECT_EQ(message(chain), "key 'task_chain.tasks[1].p_min': value '0': expected an integer >= 1");
  chain               = two_tasks();
  chain.tasks[0].exec = CostFunction::values({1, -2});
  EXPECT_EQ(message(chain), "key 'task_chain.tasks[0].exec': f_exec of a: table values must be finite and >= 0");
  chain                  = two_tasks();
  chain.processor_memory = 0;
  EXPECT_THAT(message(chain), HasSubstr("key 'task_chain.processor_memory': value '0': expected a finite number > 0"));
  chain      = two_tasks();
  chain.ecom = {CommFunction::values({{1, 2}, {3}})};
  EXPECT_THAT(message(chain), HasSubstr("table rows must all have the same"));
  EXPECT_EQ(message(TaskChain{}), "key 'task_chain.tasks': expected at least one task");
}

TEST(Sv95TaskChain, NegativeTimesWithinTheProcessorsUsed)
{
  // f_exec(p) = 3 - p: 0 at p = 3, -1 at p = 4; f_ecom(ps, pr) = 2 - ps: -1 at ps = 3
  TaskChain chain     = two_tasks();
  chain.tasks[0].exec = CostFunction::polynomial(3, 0, -1);
  EXPECT_FALSE(check_times(chain, 3));
  auto found = check_times(chain, 10);
  ASSERT_TRUE(found);
  EXPECT_EQ(found->describe(), "f_exec of a at p = 4 is -1 (a time must be >= 0)");
  chain.tasks[0].exec  = CostFunction::polynomial(1);
  chain.ecom[0]        = CommFunction::polynomial(2, 0, 0, -1, 0);
  chain.tasks[1].p_min = 2; // pr starts at b's minimum
  found                = check_times(chain, 3);
  ASSERT_TRUE(found);
  EXPECT_EQ(found->describe(), "f_ecom a -> b at (ps, pr) = (3, 2) is -1 (a time must be >= 0)");
  // below a task's minimum nothing is evaluated: f_exec(1) = -1 does not count when p_min = 2
  chain.ecom[0]       = CommFunction::polynomial(1);
  chain.tasks[1].exec = CostFunction::polynomial(-2, 0, 1); // p - 2
  EXPECT_FALSE(check_times(chain, 8));
}

TEST(Sv95ChainGenerator, SeededAndWithinRanges)
{
  TaskChainRanges ranges;
  TaskChain a = generate_task_chain(5, ranges, 42);
  TaskChain b = generate_task_chain(5, ranges, 42);
  ASSERT_EQ(a.k(), 5);
  int replicable = 0;
  for (int i = 1; i <= 5; ++i) {
    EXPECT_EQ(a.task(i).exec.c, b.task(i).exec.c);
    EXPECT_GE(a.task(i).exec.c[1], 1);
    EXPECT_LE(a.task(i).exec.c[1], 40);
    EXPECT_GE(a.task(i).p_min, 1);
    EXPECT_LE(a.task(i).p_min, 3);
    replicable += a.task(i).replicable ? 1 : 0;
  }
  EXPECT_EQ(a.ecom_after(4).c, b.ecom_after(4).c);
  EXPECT_NE(generate_task_chain(5, ranges, 43).task(1).exec.c, a.task(1).exec.c);
  EXPECT_NO_THROW(a.validate());
  EXPECT_FALSE(check_times(a, 100));
  EXPECT_GT(replicable, 0);
  EXPECT_THROW(generate_task_chain(0, ranges, 1), InputError);
  ranges.exec[0] = Range::uniform(-1, 1);
  EXPECT_THROW(generate_task_chain(2, ranges, 1), InputError);
}

} // namespace
} // namespace pipesim
