// Tests of run_program with real programs of the machine (/bin/echo, /bin/false, sh, cat, head, pwd).
#include "base/external_program.hpp"

#include "base/input_error.hpp"

#include <cerrno>
#include <chrono>
#include <csignal>
#include <fcntl.h>
#include <fstream>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <thread>
#include <unistd.h>

using namespace pipesim;
using ::testing::HasSubstr;

namespace {

ProgramResult run_argv(std::vector<std::string> argv, double timeout = 0, bool merge = false)
{
  ProgramCall call;
  call.argv         = std::move(argv);
  call.timeout      = timeout;
  call.merge_stderr = merge;
  return run_program(call);
}

/// True when the process is gone or a zombie (killed, waiting for init to reap it).
bool process_ended(pid_t pid)
{
  std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
  std::string pid_field, name, state;
  if (!(stat >> pid_field >> name >> state)) return true;
  return state == "Z" || state == "X";
}

} // namespace

TEST(ExternalProgram, ArgumentsReachTheProgramAsTheyAreWithoutShell)
{
  ProgramResult r = run_argv({"/bin/echo", "a  b", "$HOME", "'q'", "*"});
  EXPECT_EQ(r.status, ProgramStatus::exited);
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_TRUE(r.ok());
  EXPECT_EQ(r.out, "a  b $HOME 'q' *\n"); // echo joins its arguments with one blank; nothing was expanded
  EXPECT_EQ(r.err, "");
  EXPECT_EQ(r.describe(), "/bin/echo exited with code 0");
  EXPECT_NO_THROW(r.check());
}

TEST(ExternalProgram, FailureKeepsTheExitCodeAndNamesTheProgram)
{
  ProgramResult r = run_argv({"/bin/false"});
  EXPECT_EQ(r.status, ProgramStatus::exited);
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_FALSE(r.ok());
  EXPECT_EQ(r.describe(), "/bin/false failed (exit code 1)");
  try {
    r.check("hint");
    FAIL() << "no exception";
  } catch (const InputError& e) {
    FAIL() << "a failing program is not bad input: " << e.what();
  } catch (const std::runtime_error& e) {
    EXPECT_STREQ(e.what(), "/bin/false failed (exit code 1); hint");
  }
}

TEST(ExternalProgram, StdoutAndStderrApartOrMerged)
{
  ProgramResult apart = run_argv({"sh", "-c", "echo out; echo err >&2; exit 3"});
  EXPECT_EQ(apart.exit_code, 3);
  EXPECT_EQ(apart.out, "out\n");
  EXPECT_EQ(apart.err, "err\n");
  EXPECT_EQ(apart.describe(), "sh failed (exit code 3):\nerr");
  ProgramResult merged = run_argv({"sh", "-c", "echo out; echo err >&2; exit 3"}, 0, true);
  EXPECT_EQ(merged.out, "out\nerr\n"); // one pipe, in the order written
  EXPECT_EQ(merged.err, "");
  EXPECT_EQ(merged.describe(), "sh failed (exit code 3):\nout\nerr");
}

TEST(ExternalProgram, MissingProgramIsNotFoundAndAnInputError)
{
  ProgramResult path = run_argv({"/nonexistent/sbatch", "x"});
  EXPECT_EQ(path.status, ProgramStatus::not_found);
  EXPECT_EQ(path.describe(), "/nonexistent/sbatch not found (no such file)");
  ProgramResult name = run_argv({"pipesim-no-such-program"});
  EXPECT_EQ(name.status, ProgramStatus::not_found);
  EXPECT_EQ(name.describe(), "pipesim-no-such-program not found (no such program in PATH)");
  try {
    name.check("install it");
    FAIL() << "no exception";
  } catch (const InputError& e) {
    EXPECT_STREQ(e.what(), "pipesim-no-such-program: not found (no such program in PATH); install it");
  }
  // a shell or a wrapper (env) says "missing" with exit code 127
  ProgramResult wrapped = run_argv({"sh", "-c", "exit 127"});
  EXPECT_EQ(wrapped.status, ProgramStatus::not_found);
  EXPECT_EQ(wrapped.describe(), "sh not found (exit code 127 without output)");
}

TEST(ExternalProgram, TimeoutKillsTheProgramAndItsChildren)
{
  // the shell prints the pid of a background sleep, then sleeps itself: both must die at the deadline
  ProgramResult r = run_argv({"sh", "-c", "sleep 30 & echo $!; sleep 30"}, 0.3);
  EXPECT_EQ(r.status, ProgramStatus::timed_out);
  EXPECT_FALSE(r.ok());
  EXPECT_LT(r.seconds, 20); // far below the 30 s of the sleeps
  EXPECT_THAT(r.describe(), HasSubstr("sh did not finish within 0.3 s"));
  EXPECT_THROW(r.check(), std::runtime_error);
  pid_t child = static_cast<pid_t>(std::stol(r.out));
  bool ended  = false;
  for (int i = 0; i < 500 && !ended; ++i) { // its reaper (init) may take a moment
    ended = process_ended(child);
    if (!ended) std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  EXPECT_TRUE(ended) << "the background sleep " << child << " survived the timeout";
}

TEST(ExternalProgram, ProgramThatClosesItsOutputStillMeetsTheDeadline)
{
  ProgramResult r = run_argv({"sh", "-c", "exec >/dev/null 2>&1; sleep 30"}, 0.3);
  EXPECT_EQ(r.status, ProgramStatus::timed_out);
  EXPECT_LT(r.seconds, 20);
}

TEST(ExternalProgram, SignalIsReported)
{
  ProgramResult r = run_argv({"sh", "-c", "kill -9 $$"});
  EXPECT_EQ(r.status, ProgramStatus::signalled);
  EXPECT_EQ(r.signal, SIGKILL);
  EXPECT_THAT(r.describe(), HasSubstr("sh killed by signal 9"));
}

TEST(ExternalProgram, LargeOutputOnBothStreamsDoesNotBlock)
{
  // 300 kB on stderr before 1 MB on stdout: more than a pipe holds, so both must be read while it runs
  ProgramResult r = run_argv({"sh", "-c", "head -c 300000 /dev/zero >&2; head -c 1000000 /dev/zero"});
  ASSERT_TRUE(r.ok()) << r.describe();
  EXPECT_EQ(r.err.size(), 300000u);
  EXPECT_EQ(r.out.size(), 1000000u);
}

TEST(ExternalProgram, WorkingDirectoryStdinAndFileDescriptors)
{
  ProgramCall call;
  call.argv        = {"/bin/pwd"};
  call.working_dir = "/";
  EXPECT_EQ(run_program(call).out, "/\n");
  EXPECT_EQ(run_argv({"cat"}, 10).out, "");    // stdin is /dev/null: cat ends at once
  int open_fd = ::open("/dev/null", O_RDONLY); // not close-on-exec: the program still must not inherit it
  ASSERT_GE(open_fd, 3);
  ProgramResult fds = run_argv({"sh", "-c", "ls /proc/$$/fd"});
  ::close(open_fd);
  EXPECT_EQ(fds.out, "0\n1\n2\n");
}

TEST(ExternalProgram, FindProgram)
{
  EXPECT_EQ(find_program("/nonexistent/sbatch"), "");
  EXPECT_EQ(find_program("pipesim-no-such-program"), "");
  EXPECT_NE(find_program("sh"), "");
  EXPECT_EQ(find_program("/bin/sh"), "/bin/sh");
  EXPECT_THROW(run_program(ProgramCall{}), std::invalid_argument);
}
