// Tests of the process pool's kills and limits: a hanging job's group killed at its timeout, a huge result, an
// exception in the callback, and no child left running when the caller is killed or interrupted.
#include "base/subprocess.hpp"

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstring>
#include <fmt/format.h>
#include <fstream>
#include <gtest/gtest.h>
#include <poll.h>
#include <stdexcept>
#include <sys/resource.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>
#include <vector>

namespace pipesim {
namespace {

/// True once `pid` has ended (no such process, or a zombie nobody has reaped yet); waits up to 10 s for it.
bool ends(pid_t pid)
{
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  for (;;) {
    std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
    std::string line;
    if (!stat || !std::getline(stat, line)) return true;
    auto name_end = line.rfind(')'); // "pid (name) state ..."
    if (name_end == std::string::npos || name_end + 2 >= line.size()) return true;
    char state = line[name_end + 2];
    if (state == 'Z' || state == 'X') return true;
    if (std::chrono::steady_clock::now() > deadline) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
}

/// Reads `count` pids that jobs wrote to `fd` (one pid_t each, atomic writes); fewer if they do not come within 30 s.
std::vector<pid_t> read_pids(int fd, std::size_t count)
{
  std::vector<pid_t> pids;
  while (pids.size() < count) {
    pollfd p{fd, POLLIN, 0};
    if (::poll(&p, 1, 30'000) <= 0) break;
    pid_t pid = 0;
    if (::read(fd, &pid, sizeof pid) != static_cast<ssize_t>(sizeof pid)) break;
    pids.push_back(pid);
  }
  return pids;
}

void send_pid(int fd, pid_t pid)
{
  if (::write(fd, &pid, sizeof pid) != static_cast<ssize_t>(sizeof pid)) ::_exit(9);
}

TEST(ProcessPool, AHangingJobIsKilledWithItsGroupAtTheTimeout)
{
  int pids[2];
  ASSERT_EQ(::pipe(pids), 0);
  auto outcomes = run_pool(2, {.jobs = 2, .timeout = 0.2}, [&](int i) {
    if (i == 1) return std::string("quick");
    pid_t helper = ::fork(); // a process the job started: in the job's group, killed with it
    if (helper == 0) {
      ::sleep(60);
      ::_exit(0);
    }
    send_pid(pids[1], helper);
    ::sleep(60);
    return std::string("late");
  });
  ::close(pids[1]);
  ASSERT_EQ(outcomes.size(), 2u);
  EXPECT_EQ(outcomes[0].status, JobStatus::timed_out) << outcomes[0].text;
  EXPECT_EQ(outcomes[0].text, "timed out after 0.2 s");
  EXPECT_GE(outcomes[0].seconds, 0.2);
  EXPECT_LT(outcomes[0].seconds, 30.0); // the pool did not wait for the job's 60 s
  EXPECT_EQ(outcomes[1].text, "quick");
  auto helper = read_pids(pids[0], 1);
  ::close(pids[0]);
  ASSERT_EQ(helper.size(), 1u);
  EXPECT_TRUE(ends(helper[0]));
}

TEST(ProcessPool, AHugeResultArrivesIntactInOneCopy)
{
#ifdef PIPESIM_SANITIZE
  constexpr std::size_t blocks = 32; // of 1 MiB
#else
  constexpr std::size_t blocks = 200;
#endif
  constexpr std::size_t block = 1 << 20;
  auto fill                   = [](std::size_t b) { return static_cast<char>('a' + b % 26); };
  // The reading process is a child of its own, so its peak memory is this test's alone.
  std::string report = run_in_child([&] {
    std::string result = run_in_child([&] {
      std::string s(blocks * block, '\0');
      for (std::size_t b = 0; b < blocks; ++b)
        std::memset(s.data() + b * block, fill(b), block);
      return s;
    });
    if (result.size() != blocks * block) return fmt::format("size {}", result.size());
    std::string expected(block, '\0');
    for (std::size_t b = 0; b < blocks; ++b) {
      std::memset(expected.data(), fill(b), block);
      if (std::memcmp(result.data() + b * block, expected.data(), block) != 0) return fmt::format("block {}", b);
    }
    rusage usage{};
    ::getrusage(RUSAGE_SELF, &usage);
    return fmt::format("intact {}", usage.ru_maxrss); // KiB
  });
  long peak_kib      = 0;
  ASSERT_EQ(std::sscanf(report.c_str(), "intact %ld", &peak_kib), 1) << report;
  // One copy of the result and what the process had before, not two copies.
  EXPECT_LT(static_cast<double>(peak_kib) * 1024, 1.5 * static_cast<double>(blocks * block) + 100e6) << peak_kib;
}

TEST(ProcessPool, AnExceptionInTheCallbackKillsTheRunningChildren)
{
  int pids[2], go[2];
  ASSERT_EQ(::pipe(pids), 0);
  ASSERT_EQ(::pipe(go), 0);
  auto job = [&](int i) {
    char byte = 0;
    if (i == 0) { // ends once job 1 runs
      if (::read(go[0], &byte, 1) != 1) ::_exit(9);
      return std::string("first");
    }
    send_pid(pids[1], ::getpid());
    if (::write(go[1], "x", 1) != 1) ::_exit(9);
    ::sleep(60);
    return std::string("never");
  };
  try {
    run_pool(2, {.jobs = 2}, job, [](int, JobOutcome&&) { throw std::runtime_error("disk full"); });
    ADD_FAILURE() << "no exception";
  } catch (const std::runtime_error& e) {
    EXPECT_STREQ(e.what(), "disk full");
  }
  ::close(pids[1]);
  auto running = read_pids(pids[0], 1);
  for (int fd : {pids[0], go[0], go[1]})
    ::close(fd);
  ASSERT_EQ(running.size(), 1u);
  EXPECT_EQ(::kill(running[0], 0), -1); // killed and reaped
  EXPECT_EQ(errno, ESRCH);
}

struct Interruption {
  bool prepared;
  int signal;
  bool whole_group; // kill the caller's process group, or the caller alone
};

/// A caller (in its own process group) runs a pool of three sleeping jobs and is killed as `how` says: every job
/// process (and every prepared worker) must end.
void expect_no_survivor(const Interruption& how)
{
  SCOPED_TRACE(fmt::format("prepared {}, signal {}, whole group {}", how.prepared, how.signal, how.whole_group));
  int pids[2];
  ASSERT_EQ(::pipe(pids), 0);
  pid_t caller = ::fork();
  ASSERT_GE(caller, 0);
  if (caller == 0) {
    ::setpgid(0, 0);
    ::close(pids[0]);
    PoolOptions options{.jobs = 3};
    if (how.prepared) options.prepare = [] {};
    run_pool(3, options, [&](int) {
      send_pid(pids[1], ::getpid());
      send_pid(pids[1], ::getppid()); // the caller, or the prepared worker
      ::sleep(60);
      return std::string();
    });
    ::_exit(0);
  }
  ::setpgid(caller, caller);
  ::close(pids[1]);
  auto started = read_pids(pids[0], 6);
  ::close(pids[0]);
  if (started.size() < 6) ::kill(-caller, SIGKILL);
  ASSERT_EQ(started.size(), 6u);
  EXPECT_EQ(::kill(how.whole_group ? -caller : caller, how.signal), 0);
  int status = 0;
  ASSERT_EQ(::waitpid(caller, &status, 0), caller);
  EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == how.signal) << status;
  for (pid_t pid : started)
    EXPECT_TRUE(pid == caller || ends(pid)) << "process " << pid << " still runs";
}

TEST(ProcessPool, NoChildSurvivesItsCaller)
{
  for (bool prepared : {false, true}) {
    expect_no_survivor({prepared, SIGKILL, true});
    expect_no_survivor({prepared, SIGTERM, false});
    expect_no_survivor({prepared, SIGINT, false}); // as a campaign interrupted with Ctrl-C
  }
}

} // namespace
} // namespace pipesim
