// Memory and time limits of simulation processes (issue 31: a run that grew to the machine's memory died after 10
// minutes as "internal error: simulation process died: signal 9"): the pool stops a child past its memory limit
// and one that cannot allocate, the limits come from the environment, and the message says what to raise.
#include "base/resource_limits.hpp"

#include "base/input_error.hpp"

#include <chrono>
#include <cstdlib>
#include <cstring>
#include <fmt/format.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <thread>
#include <unistd.h>
#include <vector>

namespace pipesim {
namespace {

using ::testing::HasSubstr;

/// Touches `megabytes` MB of fresh memory, 10 MB at a time, 20 ms apart (resident, not only reserved), then
/// returns "done".
std::string grow(int megabytes)
{
  std::vector<std::vector<char>> blocks;
  for (int mb = 0; mb < megabytes; mb += 10) {
    blocks.emplace_back(10u << 20);
    std::memset(blocks.back().data(), 1, blocks.back().size());
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  return "done";
}

TEST(ResourceLimits, AChildPastItsMemoryLimitIsStoppedAndSaysSo)
{
  // 400 MB touched over ~0.8 s against a limit of 100 MB above the child's size at its start: stopped at a check
  // (every 0.2 s) long before the end
  const double base = resident_bytes(::getpid());
  PoolOptions options;
  options.memory_limit = base + 100e6;
  auto start           = std::chrono::steady_clock::now();
  JobOutcome o         = std::move(run_pool(1, options, [](int) { return grow(400); }).front());
  EXPECT_EQ(o.status, JobStatus::out_of_memory) << o.text;
  EXPECT_EQ(o.text, fmt::format("used more than {:.0f} bytes of memory", options.memory_limit));
  EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(), 60);
  // below the limit the job finishes
  options.memory_limit = base + 400e6;
  EXPECT_EQ(run_pool(1, options, [](int) { return grow(50); }).front().text, "done");
}

TEST(ResourceLimits, AFailedAllocationIsOutOfMemory)
{
  JobOutcome o = std::move(run_pool(1, {}, [](int) -> std::string { throw std::bad_alloc(); }).front());
  EXPECT_EQ(o.status, JobStatus::out_of_memory);
  EXPECT_EQ(o.text, "a memory allocation failed (std::bad_alloc)");
}

TEST(ResourceLimits, FromTheEnvironmentWithDefaults)
{
  ::unsetenv("PIPESIM_MEMORY_LIMIT");
  ::unsetenv("PIPESIM_TIME_LIMIT");
  ResourceLimits limits = simulation_limits();
  EXPECT_DOUBLE_EQ(limits.memory, 0.5 * physical_memory());
  EXPECT_EQ(limits.seconds, 6 * 3600);
  ::setenv("PIPESIM_MEMORY_LIMIT", "8GB", 1);
  ::setenv("PIPESIM_TIME_LIMIT", "90m", 1);
  limits = simulation_limits();
  EXPECT_EQ(limits.memory, 8e9);
  EXPECT_EQ(limits.seconds, 5400);
  ::setenv("PIPESIM_MEMORY_LIMIT", "512MiB", 1);
  EXPECT_EQ(simulation_limits().memory, 512.0 * 1024 * 1024);
  ::setenv("PIPESIM_MEMORY_LIMIT", "25%", 1);
  EXPECT_DOUBLE_EQ(simulation_limits().memory, 0.25 * physical_memory());
  ::setenv("PIPESIM_MEMORY_LIMIT", "none", 1);
  ::setenv("PIPESIM_TIME_LIMIT", "none", 1);
  limits = simulation_limits();
  EXPECT_EQ(limits.memory, 0);
  EXPECT_EQ(limits.seconds, 0);
  ::setenv("PIPESIM_MEMORY_LIMIT", "lots", 1);
  EXPECT_THAT([] { simulation_limits(); },
              ::testing::ThrowsMessage<InputError>(::testing::StrEq(
                  "PIPESIM_MEMORY_LIMIT=lots: expected bytes (a number, or with a unit: 8GB, 512MiB) or a share of "
                  "the machine's memory (75%), or none")));
  ::setenv("PIPESIM_MEMORY_LIMIT", "150%", 1);
  EXPECT_THROW(simulation_limits(), InputError);
  ::unsetenv("PIPESIM_MEMORY_LIMIT");
  ::setenv("PIPESIM_TIME_LIMIT", "-3", 1);
  EXPECT_THAT([] { simulation_limits(); },
              ::testing::ThrowsMessage<InputError>(HasSubstr("PIPESIM_TIME_LIMIT=-3: expected seconds")));
  ::unsetenv("PIPESIM_TIME_LIMIT");
}

TEST(ResourceLimits, RunLimitedSaysWhatStoppedWhereAndHowToRaiseIt)
{
  ::setenv("PIPESIM_TIME_LIMIT", "0.5", 1);
  ::setenv("PIPESIM_MEMORY_LIMIT", "none", 1);
  EXPECT_THAT(
      [] {
        run_limited(
            [] {
              std::this_thread::sleep_for(std::chrono::seconds(30));
              return std::string();
            },
            "the simulation of 9 data sets");
      },
      ::testing::ThrowsMessage<InputError>(
          ::testing::StrEq("PIPESIM_TIME_LIMIT=0.5: simulation: the simulation of 9 data sets stopped after 0.5 s, the "
                           "time limit of a simulation process "
                           "(raise it with PIPESIM_TIME_LIMIT=..., e.g. PIPESIM_TIME_LIMIT=24h, or none)")));
  ::setenv("PIPESIM_TIME_LIMIT", "none", 1);
  ::setenv("PIPESIM_MEMORY_LIMIT", "1MB", 1); // below any process: stopped at the first check
  EXPECT_THAT([] { run_limited([] { return grow(400); }, "the simulation of 9 data sets"); },
              ::testing::ThrowsMessage<InputError>(HasSubstr(
                  "its process used more memory than allowed (the memory limit is 1 MB, PIPESIM_MEMORY_LIMIT=1MB; "
                  "raise it with PIPESIM_MEMORY_LIMIT=..., e.g. PIPESIM_MEMORY_LIMIT=80% or 32GB")));
  ::unsetenv("PIPESIM_TIME_LIMIT");
  ::unsetenv("PIPESIM_MEMORY_LIMIT");
  EXPECT_EQ(run_limited([] { return std::string("ok"); }, "x"), "ok");
}

} // namespace
} // namespace pipesim
