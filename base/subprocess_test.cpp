// Tests of run_in_child and run_in_prepared_children: results, large results, typed errors, child
// and worker deaths.
#include "base/subprocess.hpp"

#include "base/input_error.hpp"

#include <csignal>
#include <cstdlib>
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
    run_in_child([]() -> std::string { throw InputError("a.yaml:3: key 'x': value 'y': bad"); });
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

int prepared_value = 0; // set by prepare in each worker, changed by jobs in their own processes

TEST(RunInPreparedChildren, JobsSeeTheirWorkersPreparationAndNotEachOther)
{
  auto outcomes = run_in_prepared_children(
      9, 2, [] { prepared_value = 42; },
      [](int i) {
        int seen = prepared_value;
        prepared_value += 1000; // in this job's process only
        return std::to_string(i) + ":" + std::to_string(seen) + ":" + std::to_string(::getppid());
      });
  ASSERT_EQ(outcomes.size(), 9u);
  std::set<std::string> workers;
  for (int i = 0; i < 9; ++i) {
    const ChildOutcome& o = outcomes[static_cast<std::size_t>(i)];
    ASSERT_TRUE(o.ok) << o.text;
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

TEST(RunInPreparedChildren, PrepareErrorsReachEveryJob)
{
  auto outcomes = run_in_prepared_children(
      5, 2, [] { throw InputError("platform.xml:3: no such link 'x'"); }, [](int) { return std::string("ran"); });
  ASSERT_EQ(outcomes.size(), 5u);
  for (const auto& o : outcomes) {
    EXPECT_FALSE(o.ok);
    EXPECT_TRUE(o.input_error);
    EXPECT_EQ(o.text, "platform.xml:3: no such link 'x'");
  }
}

TEST(RunInPreparedChildren, AJobsFailureStaysItsOwn)
{
  auto outcomes = run_in_prepared_children(
      6, 2, [] {},
      [](int i) -> std::string {
        if (i == 1) throw std::runtime_error("job 1 broke");
        if (i == 2) {
          no_core_dump();
          ::raise(SIGKILL);
        }
        if (i == 3) throw InputError("job 3: bad input");
        return "done " + std::to_string(i);
      });
  ASSERT_EQ(outcomes.size(), 6u);
  EXPECT_EQ(outcomes[0].text, "done 0");
  EXPECT_FALSE(outcomes[1].ok);
  EXPECT_EQ(outcomes[1].text, "job 1 broke");
  EXPECT_FALSE(outcomes[2].ok);
  EXPECT_EQ(outcomes[2].text.rfind("simulation process died: signal 9", 0), 0u) << outcomes[2].text;
  EXPECT_TRUE(outcomes[3].input_error);
  EXPECT_EQ(outcomes[3].text, "job 3: bad input");
  EXPECT_EQ(outcomes[4].text, "done 4");
  EXPECT_EQ(outcomes[5].text, "done 5");
  EXPECT_TRUE(run_in_prepared_children(
                  0, 2, [] {}, [](int) { return std::string(); })
                  .empty());
}

TEST(RunInPreparedChildren, AWorkerThatDiesLeavesAnErrorInItsJobs)
{
  auto outcomes = run_in_prepared_children(
      4, 2, [] {},
      [](int i) {
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
    EXPECT_FALSE(outcomes[static_cast<std::size_t>(i)].ok);
    EXPECT_EQ(outcomes[static_cast<std::size_t>(i)].text.rfind("worker process died: signal 9", 0), 0u)
        << outcomes[static_cast<std::size_t>(i)].text;
  }
}

} // namespace
} // namespace pipesim
