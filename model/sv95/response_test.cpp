// Tests of sv95 §2 and §3.3: module composition, response functions, period, throughput, bottleneck, the
// triplets of a mapping and their checks. Values worked out by hand in the comments.
#include "model/sv95/response.hpp"

#include "base/input_error.hpp"
#include "model/test_fixtures.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace pipesim {
namespace {

using ::testing::HasSubstr;

TaskChain example() { return fixtures::sv95_worked_chain(); }

TEST(Sv95Response, ModuleComposition)
{
  TaskChain chain = example();
  // p_min: memory adds up over a module (1.5 + 2 = 3.5 -> 4 processors), p_min is the largest of the tasks'
  EXPECT_EQ(module_p_min(chain, 1, 1), 2);
  EXPECT_EQ(module_p_min(chain, 2, 3), 2);
  EXPECT_EQ(module_p_min(chain, 1, 2), 4);
  EXPECT_EQ(module_p_min(chain, 1, 3), 4);
  chain.processor_memory = 0.5; // 1.5 / 0.5 = 3 processors for t1 alone
  EXPECT_EQ(module_p_min(chain, 1, 1), 3);
  chain = example();
  EXPECT_TRUE(module_replicable(chain, 1, 2));
  EXPECT_FALSE(module_replicable(chain, 2, 3));
  // all three on p = 4: (1 + 3) + (0.5 + 0.5) + (2 + 2) + 1 + 2 = 12
  EXPECT_EQ(module_exec(chain, 1, 3, 4), 12.0);
  EXPECT_EQ(module_exec(chain, 2, 3, 4), 7.0);  // 4 + 1 + 2
  EXPECT_EQ(module_input(chain, 2, 3, 4), 4.5); // 1 + 6/3 + 6/4
  EXPECT_EQ(module_input(chain, 1, 99, 4), 0.0);
  chain.output = CostFunction::polynomial(0, 8);
  EXPECT_EQ(module_output(chain, 3, 4, 99), 2.0);
}

TEST(Sv95Response, ThroughputAndBottleneck)
{
  // M1 = {t1} with r = 2 instances of p = 3, M2 = {t2, t3} with r = 1, p = 4:
  // f1 = input 0 + f_exec1(3) + f_ecom(3, 4) = (1 + 4) + 4.5 = 9.5, term 9.5 / 2 = 4.75;
  // f2 = f_ecom(3, 4) + [f_exec2(4) + f_icom(4) + f_exec3(4)] + output 0 = 4.5 + (4 + 1 + 2) = 11.5, term 11.5.
  // Period 11.5, throughput 1 / 11.5, bottleneck M2, 2 * 3 + 4 = 10 processors.
  TaskChain chain                 = example();
  std::vector<Sv95Module> modules = {{1, 1, 2, 3}, {2, 3, 1, 4}};
  Sv95Evaluation e                = sv95_evaluate(chain, modules);
  EXPECT_EQ(e.response, (std::vector<double>{9.5, 11.5}));
  EXPECT_EQ(e.period, 11.5);
  EXPECT_EQ(e.throughput, 1 / 11.5);
  EXPECT_EQ(e.bottleneck, 1);
  EXPECT_EQ(e.processors, 10);
  // one data set alone: input 0 + exec1 5 + transfer 4.5 (sender and receiver at once) + exec 7 + output 0 = 16.5
  EXPECT_EQ(e.latency, 16.5);
  EXPECT_EQ(module_response(chain, 2, 3, 3, 4, 0), 11.5);
  // with M1 on one instance its term 9.5 is still below 11.5; with M2 on p = 2 instead:
  // f2 = (1 + 2 + 3) + [(4 + 1) + 2 + 2] = 15, f1 = 5 + (1 + 2 + 3) = 11 -> 11 / 2 = 5.5; period 15
  modules = {{1, 1, 2, 3}, {2, 3, 1, 2}};
  e       = sv95_evaluate(chain, modules);
  EXPECT_EQ(e.response, (std::vector<double>{11.0, 15.0}));
  EXPECT_EQ(e.period, 15.0);
  // the whole chain in one module on 4 processors: f = 12
  EXPECT_EQ(sv95_evaluate(chain, {{1, 3, 1, 4}}).period, 12.0);
}

TEST(Sv95Response, TripletsAndMappings)
{
  std::vector<Sv95Module> modules = {{1, 1, 2, 3}, {2, 3, 1, 4}};
  Mapping mapping                 = sv95_mapping(modules);
  ASSERT_EQ(mapping.m(), 2);
  EXPECT_EQ(mapping.interval(0).replicas, (std::vector<ProcessorGroup>{{0, 1, 2}, {3, 4, 5}}));
  EXPECT_EQ(mapping.interval(1).replicas, (std::vector<ProcessorGroup>{{6, 7, 8, 9}}));
  EXPECT_EQ(mapping.interval(0).replication, Replication::deal);
  EXPECT_EQ(sv95_modules(mapping), modules);
  EXPECT_EQ(to_text(modules), "[t1] r=2 p=3 | [t2-t3] r=1 p=4");
  TaskChain chain     = example();
  chain.tasks[1].name = "rowffts";
  EXPECT_EQ(to_text(modules, chain), "[t1] r=2 p=3 | [rowffts, t3] r=1 p=4");
  mapping.intervals[0].replicas[1].pop_back();
  EXPECT_THROW(sv95_modules(mapping), InputError); // instances of 3 and 2 processors
  mapping                          = sv95_mapping(modules);
  mapping.intervals[0].replication = Replication::active;
  EXPECT_THROW(sv95_modules(mapping), InputError);
}

TEST(Sv95Response, ModulesNeverShareAProcessor)
{
  // t2-t3's instance takes processor 2, which the second instance of t1 holds: processor 2 would be busy for
  // f_1 + f_2 per round, more than the period max_j f_j / r_j allows (issue 31: 189 %).
  Mapping mapping                       = sv95_mapping({{1, 1, 2, 2}, {2, 3, 1, 2}});
  mapping.intervals[1].replicas.front() = {2, 4};
  const std::string expected =
      "key 'mapping[1].replicas[0]': value '2': processor 2 (platform index) already runs an instance of "
      "the module [1-1]; seed 001 gives each processor to one instance of one "
      "module (an instance is busy for its whole response time)";
  try {
    sv95_modules(mapping);
    ADD_FAILURE() << "no InputError";
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()), expected);
  }
}

TEST(Sv95Response, CheckModulesNamesTheModuleAndTheLimit)
{
  TaskChain chain = example();
  auto message    = [&](const std::vector<Sv95Module>& modules, int P) {
    try {
      check_modules(chain, modules, P);
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  EXPECT_EQ(message({{1, 1, 2, 3}, {2, 3, 1, 4}}, 10), "");
  EXPECT_EQ(message({{1, 1, 2, 3}, {2, 3, 1, 4}}, 9),
            "key 'mapping': value '10': processors used by the modules, more than P = 9");
  EXPECT_EQ(message({{1, 1, 2, 1}, {2, 3, 1, 4}}, 10),
            "key 'mapping[0].replicas': value '1': processors per instance, below the module's minimum 2");
  EXPECT_EQ(message({{1, 1, 1, 2}, {2, 3, 2, 2}}, 10),
            "key 'mapping[1].replicas': value '2': instances, but the module holds a task that is not replicable");
  EXPECT_THAT(message({{1, 1, 1, 2}, {3, 3, 1, 2}}, 10), HasSubstr("expected one starting at t2"));
  EXPECT_THAT(message({{1, 2, 1, 4}}, 10), HasSubstr("they stop at t2"));
}

} // namespace
} // namespace pipesim
