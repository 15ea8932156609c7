// Tests of the process pool's results: run_in_child, typed outcomes, their order, the jobs limit, prepared workers
// and their deaths (timeouts, huge results and kills: subprocess_kill_test.cpp).
#include "base/subprocess.hpp"

#include "base/input_error.hpp"

#include <algorithm>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <fmt/format.h>
#include <gtest/gtest.h>
#include <set>
#include <stdexcept>
#include <sys/resource.h>
#include <unistd.h>

namespace pipesim {
namespace {

TEST(RunInChild, ReturnsTheResult)
{
  EXPECT_EQ(run_in_child([] { return std::string("hello"); }), "hello");
  EXPECT_EQ(run_in_child([] { return std::string(); }), "");
}

TEST(RunInChild, RunsInAnotherProcess)
{
  std::string child_pid = run_in_child([] { return std::to_string(::getpid()); });
  EXPECT_NE(child_pid, std::to_string(::getpid()));
}

TEST(RunInChild, ChildStateDoesNotLeak)
{
  static int counter = 0;
  run_in_child([] {
    counter = 42;
    return std::string();
  });
  EXPECT_EQ(counter, 0);
}

TEST(RunInChild, LargeResultIsReadFully)
{
  // Far beyond a pipe buffer (64 KiB): the parent must read before waiting.
  std::string result = run_in_child([] {
    std::string s(8 << 20, 'x');
    s.back() = 'y';
    return s;
  });
  ASSERT_EQ(result.size(), std::size_t{8 << 20});
  EXPECT_EQ(result.front(), 'x');
  EXPECT_EQ(result.back(), 'y');
}

TEST(RunInChild, InputErrorKeepsItsTypeAndMessage)
{
  try {
    run_in_child([]() -> std::string { throw InputError::at("a.yaml", 3, "x", "y", "bad"); });
    FAIL() << "no exception";
  } catch (const InputError& e) {
    EXPECT_STREQ(e.what(), "a.yaml:3: key 'x': value 'y': bad");
  }
}

TEST(RunInChild, OtherExceptionsBecomeRuntimeError)
{
  try {
    run_in_child([]() -> std::string { throw std::logic_error("broken invariant"); });
    FAIL() << "no exception";
  } catch (const InputError&) {
    FAIL() << "must not be an InputError";
  } catch (const std::runtime_error& e) {
    EXPECT_STREQ(e.what(), "broken invariant");
  }
}

void no_core_dump()
{
  rlimit none{0, 0};
  ::setrlimit(RLIMIT_CORE, &none);
}

std::string failure_of(const std::function<std::string()>& job)
{
  try {
    run_in_child(job);
  } catch (const InputError& e) {
    return std::string("InputError: ") + e.what();
  } catch (const std::runtime_error& e) {
    return e.what();
  }
  return "no exception";
}

TEST(RunInChild, ChildDeathsAreReported)
{
  EXPECT_EQ(failure_of([]() -> std::string {
              no_core_dump();
              std::abort();
            }).rfind("simulation process died: signal 6", 0),
            0u);
  EXPECT_EQ(failure_of([]() -> std::string {
              no_core_dump();
              ::raise(SIGKILL); // not SIGSEGV: sanitizers catch it and exit instead
              return "";
            }).rfind("simulation process died: signal 9", 0),
            0u);
  EXPECT_EQ(failure_of([]() -> std::string { ::_exit(7); }), "simulation process died: exit code 7");
  EXPECT_EQ(failure_of([]() -> std::string { ::_exit(0); }),
            "simulation process died: exit code 0 before sending a result");
}

TEST(RunInChild, Nests)
{
  EXPECT_EQ(run_in_child([] { return "outer+" + run_in_child([] { return std::string("inner"); }); }), "outer+inner");
}

/// The outcome's status and text, for assertions that show both.
std::string shown(const JobOutcome& o) { return std::string(to_string(o.status)) + ": " + o.text; }

TEST(ProcessPool, TypedOutcomes)
{
  auto outcomes = run_pool(7, {.jobs = 3}, [](int i) -> std::string {
    switch (i) {
    case 0:
      return "result 0";
    case 1:
      throw InputError::at("a.yaml", 3, "x", "y", "bad");
    case 2:
      throw std::logic_error("broken invariant");
    case 3:
      no_core_dump();
      std::abort();
    case 4:
      no_core_dump();
      std::signal(SIGSEGV, SIG_DFL); // a sanitizer's handler would exit instead
      std::raise(SIGSEGV);
      return "";
    case 5:
      ::_exit(7);
    default:
      ::_exit(0);
    }
  });
  ASSERT_EQ(outcomes.size(), 7u);
  EXPECT_TRUE(outcomes[0].ok());
  EXPECT_EQ(outcomes[0].text, "result 0");
  EXPECT_EQ(outcomes[1].status, JobStatus::bad_input) << shown(outcomes[1]);
  EXPECT_EQ(outcomes[1].text, "a.yaml:3: key 'x': value 'y': bad");
  EXPECT_EQ(outcomes[2].status, JobStatus::failed) << shown(outcomes[2]);
  EXPECT_EQ(outcomes[2].text, "broken invariant");
  for (auto [i, sig] : {std::pair{3, SIGABRT}, std::pair{4, SIGSEGV}}) {
    const JobOutcome& o = outcomes[static_cast<std::size_t>(i)];
    EXPECT_EQ(o.status, JobStatus::crashed) << shown(o);
    EXPECT_EQ(o.signal, sig);
    EXPECT_FALSE(o.worker);
    EXPECT_EQ(o.text, fmt::format("simulation process died: signal {} ({})", sig, strsignal(sig)));
  }
  EXPECT_EQ(outcomes[5].status, JobStatus::crashed);
  EXPECT_EQ(outcomes[5].signal, 0);
  EXPECT_EQ(outcomes[5].exit_code, 7);
  EXPECT_EQ(outcomes[5].text, "simulation process died: exit code 7");
  EXPECT_EQ(outcomes[6].status, JobStatus::crashed);
  EXPECT_EQ(outcomes[6].exit_code, 0);
  EXPECT_EQ(outcomes[6].text, "simulation process died: exit code 0 before sending a result");
  EXPECT_TRUE(run_pool(0, {.jobs = 2}, [](int) { return std::string("never"); }).empty());
}

TEST(ProcessPool, OutcomesInIndexOrderCallbacksAsJobsEnd)
{
  // Job i < 3 waits for a byte that the callback of job i + 1 sends: the jobs end in the order 3, 2, 1, 0.
  int go[3][2];
  for (auto& fds : go)
    ASSERT_EQ(::pipe(fds), 0);
  std::vector<int> ended;
  std::vector<std::string> texts(4);
  run_pool(
      4, {.jobs = 4},
      [&](int i) {
        char byte = 0;
        if (i < 3 && ::read(go[i][0], &byte, 1) != 1) throw std::runtime_error("no go");
        return "job " + std::to_string(i);
      },
      [&](int i, JobOutcome&& o) {
        ended.push_back(i);
        texts[static_cast<std::size_t>(i)] = std::move(o.text);
        if (i > 0 && ::write(go[i - 1][1], "x", 1) != 1) ADD_FAILURE() << "cannot release job " << i - 1;
      });
  for (auto& fds : go) {
    ::close(fds[0]);
    ::close(fds[1]);
  }
  EXPECT_EQ(ended, (std::vector<int>{3, 2, 1, 0}));
  EXPECT_EQ(texts, (std::vector<std::string>{"job 0", "job 1", "job 2", "job 3"}));
  auto outcomes = run_pool(4, {.jobs = 2}, [](int i) { return std::to_string(i * i); });
  for (int i = 0; i < 4; ++i)
    EXPECT_EQ(outcomes[static_cast<std::size_t>(i)].text, std::to_string(i * i));
}

double monotonic_now()
{
  timespec t{};
  ::clock_gettime(CLOCK_MONOTONIC, &t); // one clock for every process
  return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_nsec) * 1e-9;
}

TEST(ProcessPool, RunsAtMostJobsAtOnce)
{
  // Each job reports when it ran; no instant may lie inside more than `jobs` of these intervals.
  for (int jobs : {1, 2, 3}) {
    auto outcomes = run_pool(8, {.jobs = jobs}, [](int) {
      double start = monotonic_now();
      ::usleep(30'000);
      return fmt::format("{} {}", start, monotonic_now());
    });
    std::vector<std::pair<double, int>> events; // (time, +1 start / -1 end); ends sort first at a tie
    for (const auto& o : outcomes) {
      ASSERT_TRUE(o.ok()) << shown(o);
      double start = 0, end = 0;
      ASSERT_EQ(std::sscanf(o.text.c_str(), "%lf %lf", &start, &end), 2);
      events.emplace_back(start, 1);
      events.emplace_back(end, -1);
    }
    std::sort(events.begin(), events.end());
    int running = 0, most = 0;
    for (auto [time, step] : events)
      most = std::max(most, running += step);
    EXPECT_LE(most, jobs);
    EXPECT_GE(most, 1);
  }
}

int prepared_value = 0; // set by prepare in each worker, changed by jobs in their own processes

TEST(PreparedWorkers, JobsSeeTheirWorkersPreparationAndNotEachOther)
{
  auto outcomes = run_pool(9, {.jobs = 2, .prepare = [] { prepared_value = 42; }}, [](int i) {
    int seen = prepared_value;
    prepared_value += 1000; // in this job's process only
    return std::to_string(i) + ":" + std::to_string(seen) + ":" + std::to_string(::getppid());
  });
  ASSERT_EQ(outcomes.size(), 9u);
  std::set<std::string> workers;
  for (int i = 0; i < 9; ++i) {
    const JobOutcome& o = outcomes[static_cast<std::size_t>(i)];
    ASSERT_TRUE(o.ok()) << shown(o);
    auto first  = o.text.find(':');
    auto second = o.text.find(':', first + 1);
    EXPECT_EQ(o.text.substr(0, first), std::to_string(i)); // index order
    EXPECT_EQ(o.text.substr(first + 1, second - first - 1), "42");
    workers.insert(o.text.substr(second + 1));
  }
  EXPECT_EQ(workers.size(), 2u); // two prepared workers forked every job
  EXPECT_EQ(workers.count(std::to_string(::getpid())), 0u);
  EXPECT_EQ(prepared_value, 0); // nothing ran here
}

TEST(PreparedWorkers, PrepareErrorsReachEveryJob)
{
  auto outcomes =
      run_pool(5, {.jobs = 2, .prepare = [] { throw InputError::in_file("platform.xml", 3, "no such link 'x'"); }},
               [](int) { return std::string("ran"); });
  ASSERT_EQ(outcomes.size(), 5u);
  for (const auto& o : outcomes) {
    EXPECT_EQ(o.status, JobStatus::bad_input);
    EXPECT_EQ(o.text, "platform.xml:3: no such link 'x'");
  }
}

TEST(PreparedWorkers, AJobsFailureStaysItsOwn)
{
  auto outcomes = run_pool(7, {.jobs = 2, .timeout = 0.2, .prepare = [] {}}, [](int i) -> std::string {
    if (i == 1) throw std::runtime_error("job 1 broke");
    if (i == 2) {
      no_core_dump();
      ::raise(SIGKILL);
    }
    if (i == 3) throw InputError::option("job", 3, "bad input");
    if (i == 6) ::sleep(60); // over the timeout
    return "done " + std::to_string(i);
  });
  ASSERT_EQ(outcomes.size(), 7u);
  EXPECT_EQ(outcomes[0].text, "done 0");
  EXPECT_EQ(outcomes[1].status, JobStatus::failed);
  EXPECT_EQ(outcomes[1].text, "job 1 broke");
  EXPECT_EQ(outcomes[2].status, JobStatus::crashed);
  EXPECT_EQ(outcomes[2].signal, SIGKILL);
  EXPECT_FALSE(outcomes[2].worker);
  EXPECT_EQ(outcomes[2].text.rfind("simulation process died: signal 9", 0), 0u) << outcomes[2].text;
  EXPECT_EQ(outcomes[3].status, JobStatus::bad_input);
  EXPECT_EQ(outcomes[3].text, "job 3: bad input");
  EXPECT_EQ(outcomes[4].text, "done 4");
  EXPECT_EQ(outcomes[5].text, "done 5");
  EXPECT_EQ(outcomes[6].status, JobStatus::timed_out) << shown(outcomes[6]);
  EXPECT_EQ(outcomes[6].text, "timed out after 0.2 s");
  EXPECT_GE(outcomes[6].seconds, 0.2);
  EXPECT_TRUE(run_pool(0, {.jobs = 2, .prepare = [] {}}, [](int) { return std::string(); }).empty());
}

TEST(PreparedWorkers, AWorkerThatDiesLeavesAnErrorInItsJobs)
{
  auto outcomes = run_pool(4, {.jobs = 2, .prepare = [] {}}, [](int i) {
    if (i == 1) {
      ::kill(::getppid(), SIGKILL); // the worker of jobs 1 and 3
      return std::string("orphan");
    }
    return std::string("done");
  });
  ASSERT_EQ(outcomes.size(), 4u);
  EXPECT_EQ(outcomes[0].text, "done");
  EXPECT_EQ(outcomes[2].text, "done");
  for (int i : {1, 3}) {
    const JobOutcome& o = outcomes[static_cast<std::size_t>(i)];
    EXPECT_EQ(o.status, JobStatus::crashed);
    EXPECT_TRUE(o.worker);
    EXPECT_EQ(o.signal, SIGKILL);
    EXPECT_EQ(o.text.rfind("worker process died: signal 9", 0), 0u) << o.text;
  }
}

} // namespace
} // namespace pipesim
