// Progress lines: the text (done/total, rate, ETA, failures), when they are printed, and the terminal rule.
#include "base/progress.hpp"

#include <algorithm>
#include <cstdio>
#include <fcntl.h>
#include <functional>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <pty.h>
#include <string>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

using namespace pipesim;
using testing::HasSubstr;

namespace {

/// What `body` writes on stderr, run in a forked child whose stderr is a pipe (or `fd_for_stderr` when >= 0), and
/// its exit code.
std::pair<int, std::string> child_stderr_progress(const std::function<int()>& body, int fd_for_stderr = -1)
{
  int p[2];
  if (::pipe(p) != 0) return {-1, ""};
  std::fflush(stderr);
  pid_t pid = ::fork();
  if (pid == 0) {
    ::close(p[0]);
    ::dup2(fd_for_stderr >= 0 ? fd_for_stderr : p[1], STDERR_FILENO);
    ::close(p[1]);
    int code = body();
    std::fflush(stderr);
    ::_exit(code);
  }
  ::close(p[1]);
  std::string out;
  char buf[512];
  ssize_t got = 0;
  while ((got = ::read(p[0], buf, sizeof buf)) > 0)
    out.append(buf, static_cast<std::size_t>(got));
  ::close(p[0]);
  int status = 0;
  ::waitpid(pid, &status, 0);
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, out};
}

} // namespace

TEST(ProgressLine, ShowsDoneTotalRateAndEta)
{
  // 25 of 100 runs in 10 s: 2.5 runs/s, the 75 left take 30 s
  EXPECT_EQ(progress_line("fidelity", "runs", {25, 100, 10.0, 3, false}),
            "fidelity: 25/100 runs, 2.50 runs/s, ETA 30s, 3 failures");
  // no failure count; 1,500 data sets in 0.5 s: 3,000/s, 98,500 left take 32.8 s
  EXPECT_EQ(progress_line("simulation", "data sets", {1500, 100000, 0.5}),
            "simulation: 1500/100000 data sets, 3000 data sets/s, ETA 33s");
  // 1 variant in 90 s: 0.0111/s, 4 left take 360 s
  EXPECT_EQ(progress_line("whatif", "variants", {1, 5, 90.0}), "whatif: 1/5 variants, 0.0111 variants/s, ETA 6m00s");
}

TEST(ProgressLine, UnknownRateBeforeAnyTimeOrWork)
{
  EXPECT_EQ(progress_line("pareto", "points", {0, 8, 0.0}), "pareto: 0/8 points, ? points/s, ETA ?");
  EXPECT_EQ(progress_line("pareto", "points", {0, 8, 2.0}), "pareto: 0/8 points, 0 points/s, ETA ?");
}

TEST(ProgressLine, FinalLineGivesTheElapsedTime)
{
  // 40 runs in 125 s: 0.32 runs/s
  EXPECT_EQ(progress_line("c", "runs", {40, 40, 125.0, 0, true}), "c: 40/40 runs in 2m05s, 0.32 runs/s, 0 failures");
}

TEST(ProgressLine, Durations)
{
  EXPECT_EQ(progress_duration(0), "0s");
  EXPECT_EQ(progress_duration(59.4), "59s");
  EXPECT_EQ(progress_duration(59.6), "1m00s"); // rounded before splitting: never "0m60s"
  EXPECT_EQ(progress_duration(60), "1m00s");
  EXPECT_EQ(progress_duration(3599), "59m59s");
  EXPECT_EQ(progress_duration(3600), "1h00m");
  EXPECT_EQ(progress_duration(7529), "2h05m"); // 125.48 min
  EXPECT_EQ(progress_duration(-1), "0s");
}

TEST(ProgressMode, QuietIsOffAndAFileOrPipeIsNotATerminal)
{
  EXPECT_EQ(progress_mode(true), ProgressMode::off);
  EXPECT_EQ(progress_mode(true, ProgressMode::log), ProgressMode::off);
  // stderr a pipe: off for the commands, log for campaigns
  auto [code, out] = child_stderr_progress([] {
    return (progress_mode(false) == ProgressMode::off ? 1 : 0) +
           (progress_mode(false, ProgressMode::log) == ProgressMode::log ? 2 : 0);
  });
  EXPECT_EQ(code, 3);
}

TEST(ProgressMode, APseudoTerminalIsATerminal)
{
  int master = -1, slave = -1;
  ASSERT_EQ(::openpty(&master, &slave, nullptr, nullptr, nullptr), 0);
  auto [code, out] = child_stderr_progress(
      [] {
        if (progress_mode(false) != ProgressMode::terminal) return 1;
        Progress p("sim", "data sets", 3, progress_mode(false));
        std::this_thread::sleep_for(std::chrono::milliseconds(250));
        p.set(2); // 0.25 s after the start: printed
        return 0;
      },
      slave);
  ::close(slave);
  std::string text;
  char buf[512];
  // the child has exited: what it wrote waits in the terminal's buffer
  int flags = ::fcntl(master, F_GETFL);
  ::fcntl(master, F_SETFL, flags | O_NONBLOCK);
  ssize_t got = 0;
  while ((got = ::read(master, buf, sizeof buf)) > 0)
    text.append(buf, static_cast<std::size_t>(got));
  ::close(master);
  EXPECT_EQ(code, 0);
  EXPECT_THAT(text, HasSubstr("\rsim: 2/3 data sets, "));
  EXPECT_THAT(text, HasSubstr("sim: 2/3 data sets in 0s, ")); // the destructor's final line
}

TEST(Progress, OffPrintsNothing)
{
  auto [code, out] = child_stderr_progress([] {
    Progress p("c", "runs", 2, ProgressMode::off, true);
    std::this_thread::sleep_for(std::chrono::milliseconds(250));
    p.advance(true);
    p.advance();
    p.finish();
    return 0;
  });
  EXPECT_EQ(out, "");
}

TEST(Progress, TerminalLineIsRewrittenInPlaceAndEndedOnce)
{
  auto [code, out] = child_stderr_progress([] {
    Progress p("c", "runs", 2, ProgressMode::terminal, true);
    p.advance(); // at once: too soon to print
    std::this_thread::sleep_for(std::chrono::milliseconds(250));
    p.advance(true);
    p.finish();
    p.finish(); // once
    return 0;
  });
  EXPECT_THAT(out, testing::StartsWith("\rc: 2/2 runs, "));
  EXPECT_THAT(out, HasSubstr(", ETA 0s, 1 failures\033[K\rc: 2/2 runs in 0s, "));
  EXPECT_THAT(out, testing::EndsWith(", 1 failures\033[K\n"));
  EXPECT_EQ(std::count(out.begin(), out.end(), '\n'), 1);
}

TEST(Progress, TerminalRunTooShortToPrintLeavesNothing)
{
  auto [code, out] = child_stderr_progress([] {
    Progress p("sim", "data sets", 1000, ProgressMode::terminal);
    for (long k = 1; k <= 1000; ++k)
      p.set(k);
    return 0;
  });
  EXPECT_EQ(out, "");
}

TEST(Progress, LogModeEndsWithAPlainFinalLine)
{
  auto [code, out] = child_stderr_progress([] {
    Progress p("c", "runs", 2, ProgressMode::log, true);
    p.advance();
    p.advance(true);
    p.finish();
    return 0;
  });
  EXPECT_THAT(out, testing::MatchesRegex("c: 2/2 runs in 0s, [0-9.e+]+ runs/s, 1 failures\n"));
}
