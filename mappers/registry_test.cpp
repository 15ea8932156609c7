// Tests of the mapper registry: stable names, unknown names, duplicates, run_mapper's checks and timing.
#include "mappers/mapper.hpp"

#include "base/input_error.hpp"

#include <algorithm>
#include <gtest/gtest.h>
#include <stdexcept>

namespace pipesim {
namespace {

class NullMapper : public Mapper {
public:
  std::string name() const override { return "null"; }
  std::string description() const override { return "does nothing"; }
  std::optional<std::string> refuses(const Problem&) const override { return std::nullopt; }
  MapperResult map(const Problem&, const MapperOptions&) const override { return {}; }
};

MapperFactory null_factory()
{
  return [] { return std::make_unique<NullMapper>(); };
}

TEST(MapperRegistry, KnowsTheMappersOfThisFolder)
{
  auto names = MapperRegistry::instance().names();
  for (const char* name : {"explicit", "br07.one-to-one", "exhaustive.interval"})
    EXPECT_NE(std::find(names.begin(), names.end(), name), names.end()) << name;
  EXPECT_TRUE(std::is_sorted(names.begin(), names.end()));
  EXPECT_EQ(MapperRegistry::instance().create("br07.one-to-one")->name(), "br07.one-to-one");
}

TEST(MapperRegistry, UnknownNameListsTheKnownOnes)
{
  MapperRegistry registry;
  registry.add("b", null_factory());
  registry.add("a", null_factory());
  registry.add("c", null_factory());
  try {
    registry.create("x");
    FAIL() << "no exception";
  } catch (const InputError& e) {
    EXPECT_STREQ(e.what(), "unknown mapper 'x' (known: a, b, c)");
  }
  // The global registry says the same through run_mapper.
  try {
    run_mapper("no-such-mapper", Problem{}, MapperOptions{});
    FAIL() << "no exception";
  } catch (const InputError& e) {
    std::string message = e.what();
    EXPECT_EQ(message.rfind("unknown mapper 'no-such-mapper' (known: ", 0), 0u) << message;
    EXPECT_NE(message.find("br07.one-to-one"), std::string::npos) << message;
    EXPECT_NE(message.find("explicit"), std::string::npos) << message;
  }
}

TEST(MapperRegistry, RejectsDuplicates)
{
  MapperRegistry registry;
  registry.add("a", null_factory());
  EXPECT_THROW(registry.add("a", null_factory()), std::logic_error);
  EXPECT_THROW(MapperRegistry::instance().add("explicit", null_factory()), std::logic_error);
  EXPECT_EQ(registry.names(), std::vector<std::string>{"a"});
}

TEST(MapperRegistry, RunMapperRefusesWithTheMappersReasonAndTimesTheRun)
{
  Problem problem;
  problem.pipeline = Pipeline{{1}, {0, 0}};
  Processor p1;
  p1.name          = "P1";
  problem.platform = Platform({p1}, "in", "out");
  try {
    run_mapper("explicit", problem, MapperOptions{});
    FAIL() << "no exception";
  } catch (const InputError& e) {
    EXPECT_STREQ(e.what(), "mapper 'explicit' cannot handle this problem: the problem has no explicit mapping "
                           "(give one in the scenario)");
  }
  MapperResult result = run_mapper("br07.one-to-one", problem, MapperOptions{});
  ASSERT_EQ(result.statistics.count("seconds"), 1u);
  EXPECT_GE(result.statistics.at("seconds"), 0.0);
  EXPECT_EQ(result.status, SolveStatus::optimal);
  EXPECT_EQ(result.objective, 1.0); // w_1 / s_1 = 1, no data
}

TEST(MapperRegistry, DeadlineCountsFromWhenTheRunTakesIt)
{
  MapperOptions options;
  options.time_limit = 0;
  EXPECT_TRUE(options.deadline().expired()); // a limit of 0 s is over at once
  options.time_limit = 3600;
  Deadline deadline  = options.deadline();
  EXPECT_FALSE(deadline.expired());
  EXPECT_EQ(deadline.seconds(), 3600.0);
  EXPECT_GE(deadline.elapsed(), 0.0);
}

TEST(MapperRegistry, Names)
{
  EXPECT_STREQ(to_string(CommModel::one_port), "one-port");
  EXPECT_STREQ(to_string(CommModel::multi_port), "multi-port");
  EXPECT_STREQ(to_string(SolveStatus::optimal), "optimal");
  EXPECT_STREQ(to_string(SolveStatus::feasible), "feasible");
  EXPECT_STREQ(to_string(SolveStatus::infeasible), "infeasible");
  EXPECT_STREQ(to_string(SolveStatus::time_limit), "time limit");
}

} // namespace
} // namespace pipesim
