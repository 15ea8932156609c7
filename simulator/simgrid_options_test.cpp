// SimGrid arguments checked before a run (issue 16: typos were an "internal error" or a SimGrid abort).
#include "base/input_error.hpp"
#include "simulator/simgrid_options.hpp"
#include "simulator/simulate.hpp"

#include <filesystem>
#include <fmt/format.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <unistd.h>

using namespace pipesim;

namespace {
std::string argument_error(const std::string& arg) { return simgrid_argument_error(arg).value_or("accepted"); }
} // namespace

TEST(SimgridOptions, ArgumentsSimgridTakesAreAccepted)
{
  EXPECT_EQ(argument_error("--cfg=network/model:LV08"), "accepted");
  EXPECT_EQ(argument_error("--cfg=host/model:ptask_L07"), "accepted");
  EXPECT_EQ(argument_error("--cfg=surf/precision:1e-9"), "accepted");
  EXPECT_EQ(argument_error("--log=root.thresh:critical"), "accepted");
}

TEST(SimgridOptions, ThrownAndAbortedRefusalsGiveSimgridsMessage)
{
  EXPECT_EQ(argument_error("--cfg=bogus/opt:1"), "SimGrid: Bad config key: bogus/opt");
  EXPECT_EQ(argument_error("--cfg=network/crosstraffic:maybe"), "SimGrid: not a boolean");
  // these three abort SimGrid (SIGABRT): the message it printed first is the answer
  EXPECT_EQ(argument_error("--cfg=network/model:Foo"),
            "SimGrid: Model 'Foo' is invalid! Valid models are: LV08, Constant, SMPI, IB, CM02, ns-3.");
  EXPECT_EQ(argument_error("--log=garbage"), "SimGrid: Invalid control string 'garbage'");
  EXPECT_EQ(argument_error("--cfg=cpu/optim:Nope"),
            "SimGrid: Invalid value 'Nope' for option cpu/optim. Possible values: Full, Lazy, TI");
  EXPECT_EQ(argument_error("--log=root.thresh:nonsense"), "SimGrid: Unknown priority name: nonsense (must be one of: "
                                                          "trace,debug,verbose,info,warning,error,critical)");
  EXPECT_EQ(argument_error("-cfg=x"), "expected a SimGrid argument starting with --cfg= or --log=");
}

TEST(SimgridOptions, UncheckedNumericOptionsOutsideTheirRangeAreRefused)
{
  // surf/precision:-1 made an empty-looking run hang; SimGrid checks neither
  EXPECT_EQ(argument_error("--cfg=surf/precision:-1"),
            "surf/precision: value '-1': expected a finite number > 0 (SimGrid takes it unchecked)");
  EXPECT_EQ(argument_error("--cfg=maxmin/precision:0"),
            "maxmin/precision: value '0': expected a finite number > 0 (SimGrid takes it unchecked)");
  EXPECT_EQ(argument_error("--cfg=network/TCP-gamma:1e999"),
            "network/TCP-gamma: value '1e999': expected a finite number >= 0 (SimGrid takes it unchecked)");
  EXPECT_EQ(argument_error("--cfg=contexts/stack-size:-5"),
            "contexts/stack-size: value '-5': expected a finite number >= 0 (SimGrid takes it unchecked)");
}

namespace {
/// Two stages on P1 and P2 (speed 1), b = 10 everywhere, no latency: delta = (1, D, 1). One-port: P1 sends D bytes to
/// P2 for each data set, so the period is D / 10 once D / 10 exceeds the other operations (1 flop, 1/10 s transfers).
struct HugeTransfer {
  Pipeline pipeline;
  Platform platform{{{"P1", 1.0}, {"P2", 1.0}}, "P0", "P0", 10.0, 0.0};
  Mapping mapping;
  explicit HugeTransfer(double delta_1) : pipeline{{1, 1}, {1, delta_1, 1}}
  {
    mapping.intervals = {Interval{1, 1, {{0}}, Replication::active}, Interval{2, 2, {{1}}, Replication::active}};
  }
};
} // namespace

// Issue 16: delta = 1e20 simulated at 9.22e17 against an analytic 1e19 (the byte count wrapped at 2^63): exact mode
// now scales sizes and bandwidths below 1 as well, so the transfer times are exact up to the clock's range.
TEST(SimgridOptions, ExactModeSimulatesSizesPastTwoToThe63)
{
  for (double delta : {1e19, 1e20, 1e100, 1e300}) {
    HugeTransfer t(delta);
    SimulationSettings s;
    s.datasets = 10;
    s.warmup   = 5;
    auto sim   = simulate({t.pipeline, t.platform, t.mapping, s}).run;
    EXPECT_NEAR(sim.period, delta / 10, 1e-12 * delta / 10) << "delta_1 = " << delta;
  }
}

TEST(SimgridOptions, SimgridModeRefusesSizesItCannotSend)
{
  HugeTransfer t(1e19);
  SimulationSettings s;
  s.datasets = 10;
  s.network  = NetworkMode::simgrid;
  try {
    simulate({t.pipeline, t.platform, t.mapping, s}).run;
    ADD_FAILURE() << "no InputError";
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()),
              "key 'pipeline.delta[1]': value '1e+19': bytes: simulation.network 'simgrid' sends whole bytes and "
              "SimGrid holds at "
              "most 2^63 - 1 = 9.223372036854775807e18 per message; use network 'exact' (which scales sizes and "
              "bandwidths together) or larger units");
  }
}

TEST(SimgridOptions, RunsPastTheClocksRangeAreRefused)
{
  HugeTransfer t(1.7e308); // the 10th data set would end at 1.7e308 s: its date was inf and the run had no result
  SimulationSettings s;
  s.datasets = 10;
  try {
    simulate({t.pipeline, t.platform, t.mapping, s}).run;
    ADD_FAILURE() << "no InputError";
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()), "key 'simulation.datasets': value '10': data sets of up to 1.7e+307 s each on "
                                     "this mapping may end past 1e307 s, beyond what "
                                     "SimGrid's clock (a double) can date; use larger units (e.g. Gflop, GB)");
  }
}

namespace {
/// The message of check_simgrid_arguments for the user arguments `user` (after pipesim's exact-mode ones) on its own
/// two-host platform, or "accepted".
std::string combination_error(const std::vector<std::string>& user)
{
  std::vector<std::string> all = {"--cfg=network/model:CM02"};
  all.insert(all.end(), user.begin(), user.end());
  try {
    check_simgrid_arguments(all, user);
    return "accepted";
  } catch (const InputError& e) {
    return e.what();
  }
}
} // namespace

// Issue 31: each of these was accepted alone and then stopped the run with an internal error (exit 1).
TEST(SimgridOptions, CombinationsThatStopARunAreRefusedNamingTheOptions)
{
  using ::testing::HasSubstr;
  EXPECT_THAT(combination_error({"--cfg=tracing:yes", "--cfg=tracing/vm:yes"}),
              HasSubstr("--cfg=tracing:yes --cfg=tracing/vm:yes: each is valid alone, but a check run "
                        "with them on this platform stops: SimGrid says: container check-sender already present"));
  EXPECT_THAT(combination_error({"--cfg=tracing:yes", "--cfg=tracing/filename:/nonexistent-dir/x.trace"}),
              HasSubstr("SimGrid cannot write the trace '/nonexistent-dir/x.trace' (/nonexistent-dir is not a "
                        "writable folder); change or drop one of them"));
  EXPECT_THAT(combination_error({"--cfg=network/model:Constant"}),
              HasSubstr("Refusing to create the link check-link: there is no link in the Constant network model"));
  // the run sets a link's bandwidth once the platform is built; SimGrid traces that only with platform variables
  EXPECT_THAT(combination_error({"--cfg=tracing:yes", "--cfg=tracing/actor:yes"}),
              HasSubstr("type with name (bandwidth) not found in parent type (LINK)"));
  EXPECT_THAT(combination_error({"--cfg=contexts/stack-size:1"}), HasSubstr("a check run with them died: "));
  EXPECT_EQ(combination_error({"--cfg=tracing/actor:yes"}), "accepted"); // tracing is off
  EXPECT_EQ(combination_error({"--log=root.thresh:critical"}), "accepted");
}

TEST(SimgridOptions, TracingGetsThePlatformVariablesItNeeds)
{
  EXPECT_EQ(simgrid_arguments_needed({"--cfg=tracing:yes", "--cfg=tracing/actor:yes"}),
            std::vector<std::string>{"--cfg=tracing/platform:yes"});
  EXPECT_TRUE(simgrid_arguments_needed({"--cfg=tracing:yes", "--cfg=tracing:no"}).empty());
  EXPECT_TRUE(simgrid_arguments_needed({"--cfg=tracing/actor:yes"}).empty());
  // Issue 31: tracing and actor states alone (no uncategorized) in exact mode stopped with an internal error (the
  // mode rescaled the links' bandwidths; its scale is now a bandwidth factor, and a run that changes link values gets
  // tracing/platform:yes before the user's arguments). The run gives the period: P1 receives 1 byte (0.1 s), computes
  // 1 flop (1 s) and sends D = 1000 bytes (100 s) per data set, one thing at a time: 101.1 s.
  std::filesystem::path trace =
      std::filesystem::temp_directory_path() / fmt::format("pipesim-options-{}.trace", ::getpid());
  HugeTransfer t(1000);
  SimulationSettings s;
  s.datasets     = 10;
  s.warmup       = 5;
  s.simgrid_args = {"--cfg=tracing:yes", "--cfg=tracing/actor:yes", "--cfg=tracing/filename:" + trace.string()};
  SimulationResult result = simulate({t.pipeline, t.platform, t.mapping, s}).run;
  EXPECT_NEAR(result.period, 101.1, 1e-9);
  EXPECT_TRUE(std::filesystem::file_size(trace) > 0);
  std::filesystem::remove(trace);
}
