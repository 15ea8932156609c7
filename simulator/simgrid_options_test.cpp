// SimGrid arguments checked before a run (issue 16: typos were an "internal error" or a SimGrid abort).
#include "base/input_error.hpp"
#include "simulator/run.hpp"
#include "simulator/simgrid_options.hpp"

#include <gtest/gtest.h>

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
    auto sim   = simulate(t.pipeline, t.platform, t.mapping, s);
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
    simulate(t.pipeline, t.platform, t.mapping, s);
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
    simulate(t.pipeline, t.platform, t.mapping, s);
    ADD_FAILURE() << "no InputError";
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()), "key 'simulation.datasets': value '10': data sets of up to 1.7e+307 s each on "
                                     "this mapping may end past 1e307 s, beyond what "
                                     "SimGrid's clock (a double) can date; use larger units (e.g. Gflop, GB)");
  }
}
