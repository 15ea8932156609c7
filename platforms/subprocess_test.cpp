// Tests of run_in_child: results, large results, typed errors and child deaths.
#include "platforms/subprocess.hpp"

#include "platforms/input_error.hpp"

#include <csignal>
#include <cstdlib>
#include <gtest/gtest.h>
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

} // namespace
} // namespace pipesim
