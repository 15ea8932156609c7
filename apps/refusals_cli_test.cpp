// Issue 31's classes of input that gave a wrong number or an internal error, each refused by `pipesim` as a user runs
// it: exit 2 and a message with the file, line, key, value and limit where the input has them.
#include "cli_test_util.hpp"

#include <filesystem>
#include <fmt/format.h>
#include <fstream>
#include <gtest/gtest.h>
#include <string>
#include <unistd.h>
#include <vector>

namespace {

struct Outcome {
  int code = -1;
  std::string out; // stdout and stderr together
};

/// Runs pipesim with `args` from the source directory; `env` ("NAME=value ...") is set for pipesim alone.
Outcome refusal_run(const std::string& args, const std::string& env = "")
{
  auto [code, out] = pipesim::test::shell_output(
      fmt::format("cd {} && {} {} {} 2>&1", PIPESIM_SOURCE_DIR, env, PIPESIM_EXECUTABLE, args));
  return Outcome{code, out};
}

/// A folder of this test process for its input files.
std::filesystem::path test_dir()
{
  auto dir = std::filesystem::temp_directory_path() / fmt::format("pipesim-refusals-{}", getpid());
  std::filesystem::create_directories(dir);
  return dir;
}

std::string write_file(const std::string& name, const std::string& text)
{
  auto path = test_dir() / name;
  std::ofstream(path) << text;
  return path.string();
}

/// Every command in `commands` (each followed by `file`) exits 2 and prints every fragment.
void expect_refused(const std::vector<std::string>& commands, const std::string& file,
                    const std::vector<std::string>& fragments)
{
  for (const std::string& command : commands) {
    Outcome r = refusal_run(command + " " + file);
    EXPECT_EQ(r.code, 2) << command << ": " << r.out;
    for (const std::string& f : fragments)
      EXPECT_NE(r.out.find(f), std::string::npos) << command << ": missing '" << f << "' in: " << r.out;
  }
}

TEST(Refusals, TaskChainModulesSharingAProcessor)
{
  // t1's instance on P1, P2 and t2's on P2, P3: P2 is busy f_1 + f_2 = 1.1 + 1 = 2.1 s per data set against the
  // printed period of 1.1 s (191 %): map, simulate and fit accepted it.
  const std::string chain = write_file("shared.yaml", R"(task_chain:
  tasks:
    - {name: a, exec: [0, 2, 0], replicable: true, icom: 0, ecom: 0.1}
    - {name: b, exec: [0, 2, 0]}
platform:
  generate: {class: fully-homogeneous, p: 4, speed: 1, bandwidth: 1, seed: 1}
mapping:
  - {stages: 1, replicas: [[P1, P2]]}
  - {stages: 2, replicas: [[P2, P3]]}
)");
  expect_refused({"map", "simulate"}, chain,
                 {chain + ":9:", "key 'mapping[1].replicas[0]'", "value 'P2'",
                  "processor P2 already runs an instance of module 1 (mapping[0])"});
  // a chain of programs (what `fit` measures) on the shipped cluster
  const std::string programs = write_file("shared-programs.yaml", fmt::format(R"(task_chain:
  tasks:
    - {{name: a, program: {{sequential: 1e9, parallel: 1e9, output: 1e6}}, icom: 0, ecom: 0.01}}
    - {{name: b, program: {{sequential: 1e9, parallel: 1e9}}}}
platform:
  file: {}/platforms/examples/sv95_cluster.xml
  io: {{in: io, out: io}}
mapping:
  - {{stages: 1, replicas: [[node-0, node-1]]}}
  - {{stages: 2, replicas: [[node-2, node-0]]}}
)",
                                                                              PIPESIM_SOURCE_DIR));
  expect_refused({"map", "simulate", "fit --no-simulate"}, programs,
                 {programs + ":10:", "key 'mapping[1].replicas[0]'", "value 'node-0'",
                  "processor node-0 already runs an instance of module 1"});
}

TEST(Refusals, RunsPastWhatSimGridsClockCanDate)
{
  // A task chain of 1e307 s per task: 200 data sets end near 4e309 s; `simulate` printed a period of 0 (SimGrid:
  // "Deadlock detected" at time inf). The bound of one data set adds every module's steps: a's exec and send, b's
  // receive and exec, 4e307 s (the transfer counted on both sides).
  const std::string chain = write_file("huge-chain.yaml", R"(task_chain:
  tasks:
    - {name: a, exec: 1e307, icom: 0, ecom: 1e307}
    - {name: b, exec: 1e307}
platform:
  generate: {class: fully-homogeneous, p: 2, speed: 1, bandwidth: 1, seed: 1}
mapping:
  - {stages: 1, replicas: [P1]}
  - {stages: 2, replicas: [P2]}
simulation: {datasets: 200}
)");
  expect_refused({"simulate"}, chain,
                 {"key 'simulation.datasets': value '200': data sets of up to 4e+307 s each through these modules may "
                  "end past 1e307 s, "
                  "beyond what SimGrid's clock (a double) can date; give the task chain's times in a larger unit"});
  // a program whose flops per host add up past the largest double: SimGrid aborted (internal error, exit 1)
  const std::string programs = write_file("huge-program.yaml", fmt::format(R"(task_chain:
  tasks:
    - {{name: a, exec: 1, program: {{sequential: 1e308, parallel: 1e308}}}}
platform:
  file: {}/platforms/examples/sv95_cluster.xml
  io: {{in: io, out: io}}
mapper: sv95.dp
)",
                                                                           PIPESIM_SOURCE_DIR));
  expect_refused({"map", "simulate"}, programs,
                 {programs + ":3:", "key 'task_chain.tasks[0].program'",
                  "sequential + parallel / p + overhead p is inf flops per processor at p = 1, past the largest "
                  "double (checked for p = 1..16)"});
}

TEST(Refusals, SimgridOptionsThatStopARun)
{
  // tracing with actor states alone (no uncategorized): internal error, exit 1; pipesim now sets what SimGrid needs
  const std::string trace = (test_dir() / "out.trace").string();
  Outcome traced          = refusal_run("simulate scenarios/examples/quickstart.yaml -q --cfg=tracing:yes "
                                                 "--cfg=tracing/actor:yes --cfg=tracing/filename:" +
                                        trace);
  EXPECT_EQ(traced.code, 0) << traced.out;
  EXPECT_TRUE(std::filesystem::exists(trace)) << traced.out;
  // options valid alone that stop SimGrid together or with pipesim's platform: exit 2 naming them
  expect_refused({"simulate --cfg=tracing:yes --cfg=tracing/vm:yes"}, "scenarios/examples/quickstart.yaml",
                 {"--cfg=tracing:yes --cfg=tracing/vm:yes: each is valid alone, but a check run with "
                  "them on this platform stops: SimGrid says: container P"});
  expect_refused({"simulate --cfg=tracing:yes --cfg=tracing/filename:/nonexistent-dir/x.trace"},
                 "scenarios/examples/quickstart.yaml",
                 {"SimGrid cannot write the trace '/nonexistent-dir/x.trace' (/nonexistent-dir is not a writable "
                  "folder)"});
  expect_refused({"simulate --cfg=network/model:Constant"}, "scenarios/examples/quickstart.yaml",
                 {"--cfg=network/model:Constant: each is valid alone", "Constant network model"});
}

TEST(Refusals, PipelineMappersAndHedpmTraceOnATaskChain)
{
  // `map --mapper hedpm` printed 2.24 (sv95's price of a mapping HeDPM made for a pipeline of zeros), and
  // hedpm-trace a trace of zeros
  const std::string chain = write_file("hedpm-chain.yaml", R"(task_chain:
  tasks:
    - {name: a, exec: [0, 2, 0], replicable: true, icom: 0, ecom: 0.1}
    - {name: b, exec: [0, 2, 0], replicable: true}
platform:
  generate: {class: fully-homogeneous, p: 4, speed: 1, bandwidth: 1, seed: 1}
mapper: hedpm
)");
  const std::string why   = "the scenario is a task_chain (sv95's data-parallel tasks, priced by their response "
                            "functions), and this mapper maps a pipeline's w and delta";
  expect_refused({"map", "simulate"}, chain, {chain + ":7: key 'mapper': value 'hedpm': mapper 'hedpm'", why});
  expect_refused({"hedpm-trace"}, chain,
                 {chain + ":2: key 'task_chain': ", "hedpm-trace: mapper 'hedpm' cannot handle this problem: ", why});
  // the mapper chosen on the command line is named as such
  expect_refused({"map --mapper hedpm"}, "scenarios/examples/multiport.yaml",
                 {"--mapper hedpm: mapper 'hedpm' cannot handle this problem: it accepts the one-port model (HeDPM's "
                  "t(n, p) adds receive, "
                  "compute and send"});
  expect_refused(
      {"hedpm-trace"}, "scenarios/examples/multiport.yaml",
      {"hedpm-trace: mapper 'hedpm' cannot handle this problem: ", "it accepts the one-port model", "not multi-port"});
}

TEST(Refusals, CampaignWithARunItsMapperRefuses)
{
  // every hedpm/multi-port row was an `error` and the campaign exited 0, where `map` exits 2
  const std::string campaign = write_file("refused-campaign.yaml", R"(name: refused
mode: analytic
base:
  pipeline: {generate: {n: 4, w: [1, 20], delta: [1, 10], seed: 1}}
  platform: {generate: {class: fully-heterogeneous, p: 4, speed: [1, 20], bandwidth: [1, 10], seed: 1}}
  mapper: hedpm
sweep:
  mapper: [random.interval, hedpm]
  simulation.model: [one-port, multi-port]
)");
  const std::string out      = (test_dir() / "refused-out").string();
  expect_refused(
      {fmt::format("campaign --out {} -q", out)}, campaign,
      {campaign + ":8: key 'mapper': value 'hedpm': run 3 (mapper=hedpm simulation.model=multi-port) cannot run: ",
       "mapper 'hedpm' cannot handle this problem", "e.g. with a `zip` of the values that go together"});
  EXPECT_FALSE(std::filesystem::exists(out)) << "the refused campaign wrote " << out;
}

TEST(Refusals, HostsOffWhenTheRunStartsAndIoHostsWithStateProfiles)
{
  // platforms/examples/state_profiles.xml: w2 off at 0 (as Fafard of SimGrid's small_platform_failures.xml), back on
  // at 1: "internal error: Cannot start actor on failed host" in every mode; now a verdict, or no failure at all
  const std::string base = R"(pipeline: {w: [1e6, 1e6, 1e6], delta: [1e6, 1e6, 1e6, 1e6]}
platform:
  file: platforms/examples/state_profiles.xml
  io: {in: IN, out: io}
mapping:
  - {stages: 1, replicas: [w1]}
  - {stages: 2, replicas: [w2]}
  - {stages: 3, replicas: [w4]}
simulation: {datasets: 20, failures: MODEL}
)";
  auto scenario          = [&](const std::string& in, const std::string& model) {
    std::string text = base;
    text.replace(text.find("IN"), 2, in);
    text.replace(text.find("MODEL"), 5, model);
    return write_file(fmt::format("profiles-{}-{}.yaml", in, model), text);
  };
  // the state profiles are the platform's: they run whatever the failure model (docs/dynamic.md)
  for (const char* model : {"none", "platform"}) {
    Outcome r = refusal_run("simulate -q " + scenario("io", model));
    EXPECT_EQ(r.code, 0) << model << ": " << r.out;
    EXPECT_NE(r.out.find("run        failed at t = 0: interval 2 lost its last replica (state profiles turned off w2 "
                         "at 0); 0 of 20 data sets delivered"),
              std::string::npos)
        << model << ": " << r.out;
  }
  Outcome platform = refusal_run("simulate -q " + scenario("io", "platform"));
  EXPECT_NE(platform.out.find("failed at t = 0: interval 2 lost its last replica, 0 of 20 data sets delivered"),
            std::string::npos)
      << platform.out;
  EXPECT_NE(platform.out.find("crashes     w2 at 0"), std::string::npos) << platform.out;
  // P_in is an I/O server outside the model: it never fails, so its state profile is refused at the XML's line
  for (const char* model : {"none", "platform"})
    expect_refused({"simulate"}, scenario("w3", model),
                   {"platforms/examples/state_profiles.xml:13: host 'w3' (P_in/P_out) has a "
                    "state_file: the io hosts are I/O servers outside the model and never fail"});
}

TEST(Refusals, PlatformInfoDescribesABareSimgridPlatform)
{
  // no scenario, no host named io: it stopped on "host 'io' named as P_in and P_out by the scenario is not in the
  // platform"
  const std::string xml = write_file("bare.xml", R"(<?xml version='1.0'?>
<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">
<platform version="4.1">
  <zone id="AS0" routing="Full">
    <host id="Alpha" speed="25Mf"/>
    <host id="Beta" speed="50Mf" core="2"/>
    <link id="ab" bandwidth="1MBps" latency="1ms"/>
    <route src="Alpha" dst="Beta"><link_ctn id="ab"/></route>
  </zone>
</platform>
)");
  Outcome info          = refusal_run("platform info " + xml);
  EXPECT_EQ(info.code, 0) << info.out;
  for (const std::string& line :
       {std::string("hosts      2 in 1 zone\n"),
        std::string("links      1: bandwidth 1e+06 bytes/s, latency 0.001 s\n"),
        std::string("routes     2 with a route: b 1e+06 bytes/s, c 0.001 s; 0 ordered pairs without\n"),
        std::string("class      communication-homogeneous if every host is a processor (SpeedHom false, LinkHom "
                    "true)\n"),
        std::string("P_in/P_out none chosen; a simulation needs them"),
        std::string("AS0                      Full              2\n"),
        std::string("Beta                            5e+07      2  AS0\n")})
    EXPECT_NE(info.out.find(line), std::string::npos) << "missing '" << line << "' in:\n" << info.out;
  // what needs P_in and P_out says so where it needs them
  expect_refused({"platform info --hosts 'A*'"}, xml, {"has no host 'io': give --in HOST --out HOST too"});
  Outcome chosen = refusal_run("platform info " + xml + " --in Alpha --out Alpha");
  EXPECT_EQ(chosen.code, 0) << chosen.out;
  EXPECT_NE(chosen.out.find("P_in       Alpha"), std::string::npos) << chosen.out;
}

TEST(Refusals, SimulationsPastTheirMemoryOrTimeLimit)
{
  // a run that outgrew the machine died after 10 minutes as "internal error: simulation process died: signal 9":
  // now stopped at its limit, exit 2, saying what it was doing and how to raise the limit (10 million data sets of
  // the quickstart take minutes and 1 GB)
  const std::string long_run = "simulate -q scenarios/examples/quickstart.yaml --datasets 10000000";
  Outcome timed              = refusal_run(long_run, "PIPESIM_TIME_LIMIT=1");
  EXPECT_EQ(timed.code, 2) << timed.out;
  EXPECT_NE(timed.out.find("pipesim: error: PIPESIM_TIME_LIMIT=1: simulation: the simulation of 10000000 data sets "
                           "(one-port) stopped after "
                           "1 s, the time limit of a simulation process (raise it with PIPESIM_TIME_LIMIT=..., e.g. "
                           "PIPESIM_TIME_LIMIT=24h, or none)"),
            std::string::npos)
      << timed.out;
  Outcome memory = refusal_run(long_run, "PIPESIM_MEMORY_LIMIT=1MB");
  EXPECT_EQ(memory.code, 2) << memory.out;
  EXPECT_NE(memory.out.find("pipesim: error: PIPESIM_MEMORY_LIMIT=1MB: simulation: the simulation of 10000000 data "
                            "sets (one-port) stopped after "),
            std::string::npos)
      << memory.out;
  EXPECT_NE(memory.out.find("its process used more memory than allowed (the memory limit is 1 MB, "
                            "PIPESIM_MEMORY_LIMIT=1MB; raise it with PIPESIM_MEMORY_LIMIT=..."),
            std::string::npos)
      << memory.out;
  Outcome bad = refusal_run(long_run, "PIPESIM_MEMORY_LIMIT=lots");
  EXPECT_EQ(bad.code, 2) << bad.out;
  EXPECT_NE(bad.out.find("PIPESIM_MEMORY_LIMIT=lots: expected bytes"), std::string::npos) << bad.out;
}

} // namespace
