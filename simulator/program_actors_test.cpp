// sv95's programs as SimGrid parallel tasks (DESIGN.md §3.8): the ptask_L07 hand check of DESIGN.md, execution
// times (sequential + parallel / p + overhead p) / s, redistributions on clusters worked out by hand, and a dealt
// two-module mapping whose period is worked out by hand.
#include "base/input_error.hpp"
#include "base/subprocess.hpp"
#include "model/sv95/program.hpp"
#include "model/sv95/response.hpp"
#include "platforms/simgrid/simgrid_platform.hpp"
#include "simulator/engine.hpp"
#include "simulator/program_actors.hpp"
#include "simulator/simulate.hpp"

#include <filesystem>
#include <fmt/format.h>
#include <fstream>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <simgrid/s4u.hpp>
#include <unistd.h>

using namespace pipesim;
namespace sg4 = simgrid::s4u;

namespace {

/// p identical processors of `speed` flop/s, a link of `b` bytes/s per ordered pair, no latency, no cards.
Platform identical(int p, double speed, double b)
{
  std::vector<Processor> processors;
  for (int u = 1; u <= p; ++u)
    processors.push_back(Processor{.name = fmt::format("P{}", u), .speed = speed});
  return Platform(processors, "Pin", "Pout", b);
}

TaskChain program_chain(std::vector<TaskProgram> programs)
{
  TaskChain chain;
  for (std::size_t i = 0; i < programs.size(); ++i) {
    chain.tasks.push_back(Task{fmt::format("t{}", i + 1), CostFunction::polynomial(0), 1, 0, true});
    if (i + 1 < programs.size()) {
      chain.icom.push_back(CostFunction::polynomial(0));
      chain.ecom.push_back(CommFunction::polynomial(0));
    }
  }
  chain.programs = std::move(programs);
  return chain;
}

/// A cluster of `hosts` nodes at 1 Gflop/s, private links `bw` (SPLITDUPLEX), backbone `bb_bw`, no latency, written
/// to a temporary file, and its model (io host "io"; xml_file() is the file).
Platform cluster(int hosts, const std::string& bw, const std::string& bb_bw)
{
  auto file = std::filesystem::temp_directory_path() / fmt::format("pipesim-ptask-{}-{}.xml", getpid(), bb_bw);
  std::ofstream(file) << fmt::format(R"(<?xml version='1.0'?>
<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">
<platform version="4.1"><zone id="grid" routing="Full">
  <cluster id="c" prefix="n-" suffix="" radical="0-{}" speed="1Gf" bw="{}" lat="0" bb_bw="{}" bb_lat="0"/>
  <zone id="io_zone" routing="Full"><host id="io" speed="1Gf"/></zone>
  <link id="io_link" bandwidth="1GBps" latency="0"/>
  <zoneRoute src="io_zone" dst="c" gw_src="io" gw_dst="n-c_router"><link_ctn id="io_link"/></zoneRoute>
</zone></platform>
)",
                                     hosts - 1, bw, bb_bw);
  return load_xml_platform(file.string(), "io", "io"); // the simulations load the file again: removed by the test
}

} // namespace

TEST(ProgramSimulation, TwoHostPtaskOfDesignTakesOneSecond)
{
  // DESIGN.md §3.8: 1 Gf per host and 125 MB each way on 1 Gf/s hosts and 125 MB/s links: computing and sending
  // both take 1 s and overlap inside one parallel task.
  Platform platform = identical(2, 1e9, 125e6);
  std::string text  = run_in_child([&] {
    // the engine of a programs job: host model ptask_L07, the model platform with its card links
    detail::start_run_engine(SimulationJob(program_chain({TaskProgram{}}), platform, Mapping{}, SimulationSettings{}));
    double end = -1;
    sg4::Actor::create("ptask", sg4::Host::by_name("P1"), [&] {
      sg4::this_actor::parallel_execute({sg4::Host::by_name("P1"), sg4::Host::by_name("P2")}, {1e9, 1e9},
                                         {0, 125e6, 125e6, 0});
      end = sg4::Engine::get_clock();
    });
    sg4::Engine::get_instance()->run();
    return fmt::format("{:.17g}", end);
  });
  EXPECT_NEAR(std::stod(text), 1.0, 1e-12);
}

TEST(ProgramSimulation, ExecTimeIsTheSv95PolynomialOnIdenticalHosts)
{
  // (sequential + parallel / p + overhead p) / s with s = 2 Gflop/s: 1.5 + 6.5 / p + 0.05 p seconds
  TaskProgram program{.sequential = 3e9, .parallel = 13e9, .overhead = 1e8};
  TaskChain chain = program_chain({program});
  std::vector<ProgramSample> samples;
  for (int p = 1; p <= 8; ++p)
    samples.push_back({ProgramStep::exec, 1, p});
  std::vector<double> t = measure_program_steps(chain, identical(8, 2e9, 1e9), samples, SimulationSettings{});
  ASSERT_EQ(t.size(), 8U);
  CostFunction f = program_exec(program, 2e9);
  for (int p = 1; p <= 8; ++p) {
    double expected = 1.5 + 6.5 / p + 0.05 * p;
    EXPECT_NEAR(t[static_cast<std::size_t>(p - 1)], expected, 1e-9) << "p = " << p;
    EXPECT_NEAR(f(p), expected, 1e-12) << "p = " << p;
  }
}

TEST(ProgramSimulation, TransposeOnAClusterIsSetByItsMostLoadedLink)
{
  // Transpose of B = 1 GB on p nodes: each node sends (p - 1) B / p^2 on its private up link and receives as much on
  // its down link; the backbone carries p (p - 1) B / p^2 = (p - 1) B / p. Private links 125 MB/s, backbone 1 GB/s:
  // p = 4: private 3/16 GB / 125 MB/s = 1.5 s > backbone 0.75 s; p = 16: private 15/256 GB / 125 MB/s = 0.46875 s
  // < backbone 15/16 s = 0.9375 s. p = 1 moves nothing.
  TaskChain chain       = program_chain({{.output = 1e9, .distribution = Distribution::transpose}, {}});
  std::vector<double> t = measure_program_steps(
      chain, cluster(16, "125MBps", "1GBps"),
      {{ProgramStep::icom, 1, 4}, {ProgramStep::icom, 1, 16}, {ProgramStep::icom, 1, 1}}, SimulationSettings{});
  ASSERT_EQ(t.size(), 3U);
  EXPECT_NEAR(t[0], 1.5, 1e-9);
  EXPECT_NEAR(t[1], 0.9375, 1e-9);
  EXPECT_EQ(t[2], 0);
}

TEST(ProgramSimulation, ExampleClusterBackboneSetsEveryRedistribution)
{
  // platforms/examples/sv95_cluster.xml: private links 1.25 GB/s, backbone 125 MB/s. B = 250 MB: a transpose on p
  // nodes puts (p - 1) B / p on the backbone: p = 4: 1.5 s; a transfer between different nodes puts all of B on it:
  // 2 s, whatever ps and pr (a private link carries at most B / min(ps, pr) at ten times the backbone's rate).
  TaskChain chain = program_chain({{.output = 250e6, .distribution = Distribution::transpose}, {}});
  Platform platform =
      load_xml_platform(std::string(PIPESIM_SOURCE_DIR) + "/platforms/examples/sv95_cluster.xml", "io", "io");
  std::vector<double> t = measure_program_steps(
      chain, platform, {{ProgramStep::icom, 1, 4}, {ProgramStep::ecom, 1, 3, 5}, {ProgramStep::ecom, 1, 1, 1}},
      SimulationSettings{});
  ASSERT_EQ(t.size(), 3U);
  EXPECT_NEAR(t[0], 1.5, 1e-9);
  EXPECT_NEAR(t[1], 2.0, 1e-9);
  EXPECT_NEAR(t[2], 2.0, 1e-9);
}

namespace {
/// t1: 1 Gf sequential, 4 Gf parallel, hands on 400 MB in blocks; t2: 2 Gf parallel, no output. Hosts of 1 Gflop/s,
/// pair links of 100 MB/s (each pair its own link, no cards).
TaskChain two_task_chain()
{
  return program_chain({{.sequential = 1e9, .parallel = 4e9, .output = 4e8}, {.parallel = 2e9}});
}
} // namespace

TEST(ProgramSimulation, DealtTwoModuleMappingPeriodByHand)
{
  // M1 = {t1}, 2 instances of 2 hosts: exec (1 + 4/2) = 3 s. M2 = {t2}, 1 instance of 4 hosts: exec 2/4 = 0.5 s.
  // Transfer 2 -> 4 hosts, blocks: sender i holds 200 MB, 100 MB to each of two receivers on its own pair link:
  // 1 s. Instance responses f1 = 3 + 1 = 4 (period term 4 / 2 = 2), f2 = 1 + 0.5 = 1.5: period 2. M2 receives
  // data set 0 at 3..4, runs it at 4..4.5, receives data set 1 at 4.5..5.5 (instance 2 waits for it from 4); from
  // then on each instance repeats every 4 s and M2 is never late. Latency: 3 + 1 + 0.5 = 4.5 s.
  TaskChain chain   = two_task_chain();
  Platform platform = identical(8, 1e9, 1e8);
  std::vector<Sv95Module> modules{{1, 1, 2, 2}, {2, 2, 1, 4}};
  Mapping mapping = sv95_mapping(modules);
  SimulationSettings s;
  s.datasets              = 40;
  SimulationResult result = simulate({chain, platform, mapping, s}).run;
  ASSERT_EQ(result.failures.verdict, Verdict::survived);
  ASSERT_EQ(result.output_times.size(), 40U);
  EXPECT_NEAR(result.output_times[0], 4.5, 1e-9);
  EXPECT_NEAR(result.output_times[1], 6.0, 1e-9);
  EXPECT_NEAR(result.period, 2.0, 1e-9);
  EXPECT_NEAR(simulate({chain, platform, mapping, s, RunKind::latency}).latency(), 4.5, 1e-9);
  // the analytic side with the functions of this platform: f_exec from the program, f_ecom(2, 4) = 1 s
  chain.tasks[0].exec = program_exec(chain.program(1), 1e9);
  chain.tasks[1].exec = program_exec(chain.program(2), 1e9);
  chain.ecom[0]       = CommFunction::polynomial(1);
  EXPECT_NEAR(sv95_evaluate(chain, modules).period, result.period, 1e-9);
  // P1 (instance 1 of M1) computes 3 s and sends 1 s for each of its 20 data sets
  ASSERT_EQ(result.usage.size(), 8U);
  EXPECT_NEAR(result.usage[0].compute, 20 * 3 / result.makespan, 1e-9);
  EXPECT_NEAR(result.usage[0].send, 20 * 1 / result.makespan, 1e-9);
  EXPECT_NEAR(result.usage[7].receive, 40 * 1 / result.makespan, 1e-9);
}

TEST(ProgramSimulation, MeasuredStepsOfTheTwoTaskChain)
{
  // exec of t1 on 2: 3 s; blocks 2 -> 4: 1 s; 4 -> 2: receiver j holds 200 MB from two senders, 100 MB each: 1 s;
  // 1 -> 1: 400 MB on one link: 4 s; icom of blocks on the same hosts: nothing moves; exec of t2 on 4: 0.5 s.
  std::vector<double> t = measure_program_steps(two_task_chain(), identical(8, 1e9, 1e8),
                                                {{ProgramStep::exec, 1, 2},
                                                 {ProgramStep::ecom, 1, 2, 4},
                                                 {ProgramStep::ecom, 1, 4, 2},
                                                 {ProgramStep::ecom, 1, 1, 1},
                                                 {ProgramStep::icom, 1, 4},
                                                 {ProgramStep::exec, 2, 4}},
                                                SimulationSettings{});
  EXPECT_THAT(t, ::testing::Pointwise(::testing::DoubleNear(1e-9), std::vector<double>{3, 1, 1, 4, 0, 0.5}));
}

TEST(ProgramSimulation, BadSamplesAndFailuresAreRefused)
{
  using ::testing::HasSubstr;
  using ::testing::ThrowsMessage;
  TaskChain chain   = two_task_chain();
  Platform platform = identical(8, 1e9, 1e8);
  SimulationSettings s;
  EXPECT_THAT(
      [&] {
        measure_program_steps(chain, platform, {{ProgramStep::exec, 3, 1}}, s);
      },
      ThrowsMessage<InputError>(HasSubstr("expected a task between 1 and k = 2")));
  EXPECT_THAT(
      [&] {
        measure_program_steps(chain, platform, {{ProgramStep::icom, 2, 1}}, s);
      },
      ThrowsMessage<InputError>(HasSubstr("the last task has no redistribution")));
  EXPECT_THAT(
      [&] {
        measure_program_steps(chain, platform, {{ProgramStep::ecom, 1, 5, 4}}, s);
      },
      ThrowsMessage<InputError>(HasSubstr("needs 9 hosts, the platform has 8")));
  chain.programs.clear();
  EXPECT_THAT(
      [&] {
        measure_program_steps(chain, platform, {{ProgramStep::exec, 1, 1}}, s);
      },
      ThrowsMessage<InputError>(HasSubstr("need a program on every task")));
  s.crashes = {Crash{"P1", 1.0}};
  EXPECT_THAT(
      [&] {
        simulate({two_task_chain(), platform, sv95_mapping({{1, 2, 1, 2}}), s}).run;
      },
      ThrowsMessage<InputError>(HasSubstr("without failures")));
}

TEST(ProgramSimulation, RefusesRunsAndStepsPastWhatSimGridsClockCanDate)
{
  // Issue 31: 1e308 flops per host on hosts of 1e3 flop/s is 1e305 s; 1000 data sets of it end near 1e308 s, past
  // 1e307 s. A step alone of 1e300 flops on a host of 1e-8 flop/s takes 1e308 s.
  using ::testing::HasSubstr;
  using ::testing::ThrowsMessage;
  Platform platform = identical(4, 1e3, 1e8);
  SimulationSettings s;
  s.datasets      = 1000;
  TaskChain chain = program_chain({{.sequential = 1e308}});
  EXPECT_THAT(
      [&] {
        simulate({chain, platform, sv95_mapping({{1, 1, 1, 1}}), s});
      },
      ThrowsMessage<InputError>(
          HasSubstr("key 'simulation.datasets': value '1000': data sets of up to 1e+305 s each through these "
                    "modules may end past 1e307 s, beyond what SimGrid's clock (a double) can "
                    "date; give the programs in larger units")));
  EXPECT_THAT(
      [&] {
        measure_program_steps(program_chain({{.sequential = 1e300}}), identical(4, 1e-8, 1e8),
                              {{ProgramStep::exec, 1, 1}}, s);
      },
      ThrowsMessage<InputError>(HasSubstr("program sample 0 (exec of task 1 on p = 1, pr = 0): may take 1e+308 s, past "
                                          "the 1e307 s SimGrid's clock (a double) can date")));
}
