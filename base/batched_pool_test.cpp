// Tests of run_pool_batched: a batch's jobs share a process in turn, results come back per job and in order, and a
// batch that fails is run again job by job.
#include "base/batched_pool.hpp"

#include "base/input_error.hpp"

#include <csignal>
#include <cstdlib>
#include <fmt/format.h>
#include <gtest/gtest.h>
#include <sys/resource.h>
#include <unistd.h>

namespace pipesim {
namespace {

int between_calls = 0; // in a batch's process: how many times `between` ran there

/// Job i's result: i, how many `between` calls its process had made, and text that a length-prefixed join must keep.
std::string tagged(int i)
{
  return fmt::format("{}:{}:{}", i, between_calls, i % 2 ? std::string("7:x:") : std::string());
}

BatchOptions counting(int size, int& reported)
{
  return {.size = size, .between = [] { ++between_calls; }, .progress = [&reported](int n) { reported += n; }};
}

TEST(BatchedPool, BatchJobsShareAProcessInTurn)
{
  int reported = 0;
  auto out     = run_pool_batched(10, {.jobs = 2}, counting(3, reported), tagged);
  ASSERT_EQ(out.size(), 10u);
  for (int i = 0; i < 10; ++i) {
    ASSERT_TRUE(out[static_cast<std::size_t>(i)].ok()) << i << ": " << out[static_cast<std::size_t>(i)].text;
    between_calls = i % 3; // batches [0, 3), [3, 6), [6, 9), [9, 10): the job's place in its batch
    EXPECT_EQ(out[static_cast<std::size_t>(i)].text, tagged(i));
  }
  between_calls = 0;
  EXPECT_EQ(reported, 10);
}

TEST(BatchedPool, PreparedWorkersRunTheBatches)
{
  static int prepared = 0;
  int reported        = 0;
  auto out            = run_pool_batched(7, {.jobs = 2, .prepare = [] { prepared = 5; }}, counting(4, reported),
                                         [](int i) { return fmt::format("{}/{}", i, prepared); });
  for (int i = 0; i < 7; ++i)
    EXPECT_EQ(out[static_cast<std::size_t>(i)].text, fmt::format("{}/5", i));
  EXPECT_EQ(prepared, 0);
  EXPECT_EQ(reported, 7);
}

TEST(BatchedPool, AFailedBatchRunsAgainJobByJob)
{
  // job 4 aborts: its batch [3, 6) is run again one job per process (no `between` call there), so 3 and 5 finish
  // and 4 alone is crashed; job 7 throws: 6 and 8 finish on their own, 7 has its message.
  int reported = 0;
  auto out     = run_pool_batched(10, {.jobs = 2}, counting(3, reported), [](int i) {
    if (i == 4) {
      rlimit no_core{0, 0};
      ::setrlimit(RLIMIT_CORE, &no_core);
      std::abort();
    }
    if (i == 7) throw std::runtime_error("job 7 failed");
    return tagged(i);
  });
  for (int i : {0, 1, 2, 9}) {
    between_calls = i % 3;
    EXPECT_EQ(out[static_cast<std::size_t>(i)].text, tagged(i)) << i;
  }
  between_calls = 0;
  for (int i : {3, 5, 6, 8})
    EXPECT_EQ(out[static_cast<std::size_t>(i)].text, tagged(i)) << i; // alone in its process
  EXPECT_EQ(out[4].status, JobStatus::crashed);
  EXPECT_EQ(out[4].signal, SIGABRT);
  EXPECT_EQ(out[7].status, JobStatus::failed);
  EXPECT_EQ(out[7].text, "job 7 failed");
  EXPECT_EQ(reported, 10);
}

TEST(BatchedPool, BadInputEndsTheBatchForAllItsJobs)
{
  int reported = 0;
  auto out     = run_pool_batched(6, {.jobs = 1}, counting(3, reported), [](int i) {
    if (i == 4) throw InputError::in_file("scenario.yaml", 3, "bad value");
    return tagged(i);
  });
  for (int i = 3; i < 6; ++i) {
    EXPECT_EQ(out[static_cast<std::size_t>(i)].status, JobStatus::bad_input) << i;
    EXPECT_EQ(out[static_cast<std::size_t>(i)].text, "scenario.yaml:3: bad value");
  }
  EXPECT_TRUE(out[2].ok());
  EXPECT_EQ(reported, 6);
}

TEST(BatchedPool, AFailingBetweenRunsTheBatchAgainJobByJob)
{
  int reported = 0;
  auto out     = run_pool_batched(
          5, {.jobs = 2},
          {.size = 5, .between = [] { throw std::logic_error("cannot reset"); }, .progress = [&](int n) { reported += n; }},
          tagged);
  for (int i = 0; i < 5; ++i)
    EXPECT_EQ(out[static_cast<std::size_t>(i)].text, tagged(i)) << i;
  EXPECT_EQ(reported, 5);
}

TEST(BatchedPool, NoJobsNoBatches)
{
  int reported = 0;
  EXPECT_TRUE(run_pool_batched(0, {.jobs = 2}, counting(3, reported), tagged).empty());
  EXPECT_EQ(reported, 0);
}

} // namespace
} // namespace pipesim
