// Crash schedule draws (no SimGrid): each failure model against its distribution, seeded and reproducible.
#include "simulator/failures.hpp"

#include "base/input_error.hpp"

#include <algorithm>
#include <cmath>
#include <gtest/gtest.h>
#include <map>
#include <set>

using namespace pipesim;

namespace {

constexpr double makespan = 10; // fault-free makespan the probability windows are fractions of

/// P1..P5 with failure probability f each; the mapping uses P1 and P2 (replicas of I_1) and P4 (I_2), not P3, P5.
struct FailuresExample {
  Platform platform;
  Mapping mapping;
  explicit FailuresExample(double f)
  {
    std::vector<Processor> processors;
    for (int u = 1; u <= 5; ++u)
      processors.push_back(Processor{.name = "P" + std::to_string(u), .failure_probability = f});
    platform          = Platform(processors, "in", "out", 10.0);
    mapping.intervals = {Interval{1, 1, {{0}, {1}}, Replication::active}, Interval{2, 2, {{3}}, Replication::active}};
  }
};

FailureSettings model(FailureModel name, double begin = 0, double end = 0.5)
{
  FailureSettings f;
  f.model        = name;
  f.window_begin = begin;
  f.window_end   = end;
  return f;
}

std::set<std::string> hosts(const std::vector<Crash>& crashes)
{
  std::set<std::string> out;
  for (const Crash& c : crashes)
    out.insert(c.host);
  return out;
}

bool by_time(const Crash& a, const Crash& b) { return a.time < b.time; }

const double almost_one = std::nextafter(1.0, 0.0); // uniform01 draws are below it but for one value in 2^53

} // namespace

TEST(CrashSchedule, NoneAndPlatformDrawNothing)
{
  FailuresExample ex(almost_one);
  for (std::uint64_t seed = 0; seed < 100; ++seed) {
    EXPECT_TRUE(draw_crash_schedule(model(FailureModel::none), ex.platform, ex.mapping, makespan, seed).empty());
    EXPECT_TRUE(draw_crash_schedule(model(FailureModel::platform), ex.platform, ex.mapping, makespan, seed).empty());
  }
}

TEST(CrashSchedule, ProbabilityZeroNeverCrashes)
{
  FailuresExample ex(0.0);
  for (std::uint64_t seed = 0; seed < 1000; ++seed)
    EXPECT_TRUE(draw_crash_schedule(model(FailureModel::probability), ex.platform, ex.mapping, makespan, seed).empty())
        << seed;
}

TEST(CrashSchedule, ProbabilityNearOneCrashesEveryUsedProcessorInTheWindow)
{
  // Window [0.2, 0.7] of a makespan 10: every crash in [2, 7].
  FailuresExample ex(almost_one);
  for (std::uint64_t seed = 0; seed < 1000; ++seed) {
    auto crashes =
        draw_crash_schedule(model(FailureModel::probability, 0.2, 0.7), ex.platform, ex.mapping, makespan, seed);
    ASSERT_EQ(hosts(crashes), (std::set<std::string>{"P1", "P2", "P4"})) << "seed " << seed;
    ASSERT_EQ(crashes.size(), 3u);
    for (const Crash& c : crashes) {
      EXPECT_GE(c.time, 2.0) << c.host << " seed " << seed;
      EXPECT_LE(c.time, 7.0) << c.host << " seed " << seed;
    }
    EXPECT_TRUE(std::is_sorted(crashes.begin(), crashes.end(), by_time)) << "seed " << seed;
  }
}

TEST(CrashSchedule, ProbabilityCrashFractionMatchesF)
{
  // Bernoulli(0.2) over R = 20,000 runs: sd of the fraction sqrt(0.2 * 0.8 / R) = 0.00283; allow 4 sd.
  const int runs = 20000;
  const double f = 0.2;
  FailuresExample ex(f);
  std::map<std::string, int> crashed;
  for (int r = 0; r < runs; ++r)
    for (const Crash& c :
         draw_crash_schedule(model(FailureModel::probability), ex.platform, ex.mapping, makespan, run_seed(7, r)))
      ++crashed[c.host];
  const double sd = std::sqrt(f * (1 - f) / runs);
  for (const std::string host : {"P1", "P2", "P4"})
    EXPECT_NEAR(crashed[host] / double(runs), f, 4 * sd) << host;
  EXPECT_EQ(crashed.count("P3") + crashed.count("P5"), 0u);
}

TEST(CrashSchedule, ExponentialMeanIsTheMtbf)
{
  // Exp(1/mtbf) has mean and sd mtbf: the mean of R = 20,000 draws is within 4 mtbf / sqrt(R) of it. P4 has no
  // mtbf (unbounded) and never crashes.
  const int runs = 20000;
  FailuresExample ex(0.0);
  ex.platform.processor(0).mtbf = 100;
  ex.platform.processor(1).mtbf = 400;
  std::map<std::string, double> sum;
  std::map<std::string, int> count;
  for (int r = 0; r < runs; ++r) {
    auto crashes =
        draw_crash_schedule(model(FailureModel::exponential), ex.platform, ex.mapping, makespan, run_seed(11, r));
    ASSERT_EQ(hosts(crashes), (std::set<std::string>{"P1", "P2"})) << "run " << r;
    ASSERT_TRUE(std::is_sorted(crashes.begin(), crashes.end(), by_time));
    for (const Crash& c : crashes) {
      ASSERT_GE(c.time, 0);
      sum[c.host] += c.time;
      ++count[c.host];
    }
  }
  EXPECT_NEAR(sum["P1"] / count["P1"], 100, 4 * 100 / std::sqrt(runs));
  EXPECT_NEAR(sum["P2"] / count["P2"], 400, 4 * 400 / std::sqrt(runs));
}

TEST(CrashSchedule, OnlyTheMappingsProcessorsAndTheSameDrawsWhateverTheMapping)
{
  FailuresExample ex(0.5);
  Mapping all; // one interval replicated on the five processors
  all.intervals = {Interval{1, 2, {{0}, {1}, {2}, {3}, {4}}, Replication::active}};
  for (std::uint64_t seed = 0; seed < 200; ++seed) {
    auto mapped = draw_crash_schedule(model(FailureModel::probability), ex.platform, ex.mapping, makespan, seed);
    auto every  = draw_crash_schedule(model(FailureModel::probability), ex.platform, all, makespan, seed);
    std::vector<Crash> restricted;
    std::copy_if(every.begin(), every.end(), std::back_inserter(restricted),
                 [](const Crash& c) { return c.host != "P3" && c.host != "P5"; });
    EXPECT_EQ(mapped, restricted) << "seed " << seed;
  }
}

TEST(CrashSchedule, SameSeedSameScheduleOtherRunOtherSchedule)
{
  FailuresExample ex(almost_one);
  ex.platform.processor(0).mtbf = 50;
  for (FailureModel name : {FailureModel::probability, FailureModel::exponential}) {
    auto a = draw_crash_schedule(model(name), ex.platform, ex.mapping, makespan, run_seed(42, 0));
    auto b = draw_crash_schedule(model(name), ex.platform, ex.mapping, makespan, run_seed(42, 0));
    auto c = draw_crash_schedule(model(name), ex.platform, ex.mapping, makespan, run_seed(42, 1));
    ASSERT_FALSE(a.empty()) << name;
    EXPECT_EQ(a, b) << name;
    EXPECT_NE(a, c) << name;
  }
  EXPECT_NE(run_seed(42, 0), run_seed(42, 1));
  EXPECT_NE(run_seed(42, 0), run_seed(43, 0));
  EXPECT_EQ(run_seed(42, 3), run_seed(42, 3));
}

TEST(CrashSchedule, TraceKeepsTheMappingsCrashesInTimeOrder)
{
  FailuresExample ex(0.0);
  FailureSettings trace = model(FailureModel::trace);
  trace.trace           = {{"P4", 3.0}, {"P3", 1.0}, {"P1", 2.0}, {"P2", 0.0}};
  auto crashes          = draw_crash_schedule(trace, ex.platform, ex.mapping, makespan, 1);
  EXPECT_EQ(crashes, (std::vector<Crash>{{"P2", 0.0}, {"P1", 2.0}, {"P4", 3.0}}));
  EXPECT_EQ(draw_crash_schedule(trace, ex.platform, ex.mapping, makespan, 2), crashes); // the seed plays no part
}

TEST(CrashSchedule, TraceErrorsNameTheHost)
{
  FailuresExample ex(0.0);
  auto message_of = [&](std::vector<Crash> crashes) {
    FailureSettings trace = model(FailureModel::trace);
    trace.trace           = std::move(crashes);
    try {
      draw_crash_schedule(trace, ex.platform, ex.mapping, makespan, 1);
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string("no InputError");
  };
  std::string unknown = message_of({{"P1", 1.0}, {"P9", 2.0}});
  EXPECT_NE(unknown.find("'P9'"), std::string::npos) << unknown;
  EXPECT_NE(unknown.find("not a processor"), std::string::npos) << unknown;
  std::string io = message_of({{"in", 1.0}});
  EXPECT_NE(io.find("'in'"), std::string::npos) << io;
  std::string negative = message_of({{"P1", -1.0}});
  EXPECT_NE(negative.find("'P1'"), std::string::npos) << negative;
  EXPECT_NE(negative.find(">= 0"), std::string::npos) << negative;
}

TEST(CrashSchedule, BadWindow)
{
  FailuresExample ex(0.1);
  EXPECT_THROW(draw_crash_schedule(model(FailureModel::probability, 0.6, 0.2), ex.platform, ex.mapping, makespan, 1),
               InputError);
  EXPECT_THROW(draw_crash_schedule(model(FailureModel::probability, -0.1, 0.2), ex.platform, ex.mapping, makespan, 1),
               InputError);
}
