// Tests of the process pool's hooks (PoolHooks): called around every fork in both processes, inherited by children,
// and an interruption check that stops the pool while its children still run (the Python module's Ctrl-C).
#include "base/subprocess.hpp"

#include <cerrno>
#include <csignal>
#include <fcntl.h>
#include <gtest/gtest.h>
#include <stdexcept>
#include <string>
#include <unistd.h>
#include <vector>

namespace pipesim {
namespace {

int before_calls       = 0;
int after_parent_calls = 0;
int after_child_calls  = 0; // each process's own copy: a child sees its parent's count at fork, plus one

TEST(PoolHooks, RunAroundEveryForkInBothProcessesAndChildrenInheritThem)
{
  set_pool_hooks({.before_fork     = [] { ++before_calls; },
                  .after_fork      = [](bool child) { ++(child ? after_child_calls : after_parent_calls); },
                  .check_interrupt = nullptr});
  auto outcomes = run_pool(3, {.jobs = 2}, [](int i) {
    if (i < 2) return std::to_string(after_child_calls);
    return run_in_child([] { return std::to_string(after_child_calls); }); // a grandchild: hooks inherited
  });
  set_pool_hooks({});
  EXPECT_EQ(before_calls, 3);
  EXPECT_EQ(after_parent_calls, 3);
  EXPECT_EQ(after_child_calls, 0);
  ASSERT_EQ(outcomes.size(), 3u);
  EXPECT_EQ(outcomes[0].text, "1");
  EXPECT_EQ(outcomes[1].text, "1");
  EXPECT_EQ(outcomes[2].text, "2"); // its parent's hook, then its own
}

TEST(PoolHooks, AnInterruptionStopsThePoolAndKillsAndReapsItsChildren)
{
  int pids[2];
  ASSERT_EQ(::pipe(pids), 0);
  ASSERT_EQ(::fcntl(pids[0], F_SETFL, O_NONBLOCK), 0);
  std::vector<pid_t> started;
  int checks = 0;
  // The check is the only thing that reads the pipe: the jobs sleep, so no child wakes the pool up, and the check
  // runs because the pool waits at most 0.1 s at a time once a check is set.
  set_pool_hooks({.before_fork = nullptr, .after_fork = nullptr, .check_interrupt = [&] {
                    ++checks;
                    pid_t pid = 0;
                    while (::read(pids[0], &pid, sizeof pid) == static_cast<ssize_t>(sizeof pid))
                      started.push_back(pid);
                    if (started.size() == 2) throw std::runtime_error("interrupted");
                  }});
  try {
    run_pool(2, {.jobs = 2}, [&](int) {
      pid_t self = ::getpid();
      if (::write(pids[1], &self, sizeof self) != static_cast<ssize_t>(sizeof self)) ::_exit(9);
      ::sleep(60);
      return std::string("never");
    });
    ADD_FAILURE() << "no exception";
  } catch (const std::runtime_error& e) {
    EXPECT_STREQ(e.what(), "interrupted");
  }
  set_pool_hooks({});
  ::close(pids[0]);
  ::close(pids[1]);
  EXPECT_GE(checks, 1);
  ASSERT_EQ(started.size(), 2u);
  for (pid_t pid : started) {
    EXPECT_EQ(::kill(pid, 0), -1) << "process " << pid << " still exists"; // killed and reaped
    EXPECT_EQ(errno, ESRCH);
  }
}

} // namespace
} // namespace pipesim
