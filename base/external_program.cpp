// Runs an external program with posix_spawnp: two pipes read with poll until the end, a deadline that kills the
// program's process group, and the one waitpid of each program.
#include "base/external_program.hpp"

#include "base/input_error.hpp"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <fmt/format.h>
#include <optional>
#include <poll.h>
#include <spawn.h>
#include <sstream>
#include <stdexcept>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

extern char** environ;

namespace pipesim {

namespace {

using ProgramClock = std::chrono::steady_clock;

/// The two ends of a pipe, closed when the object goes (close-on-exec: only the spawned program's dup2 copies of the
/// write ends survive its exec).
struct ProgramPipe {
  int read_end = -1, write_end = -1;
  explicit ProgramPipe(const std::string& program)
  {
    int fds[2];
    if (::pipe2(fds, O_CLOEXEC) != 0)
      throw std::runtime_error(fmt::format("cannot run {}: pipe(): {}", program, std::strerror(errno)));
    read_end  = fds[0];
    write_end = fds[1];
  }
  ProgramPipe(const ProgramPipe&)            = delete;
  ProgramPipe& operator=(const ProgramPipe&) = delete;
  ~ProgramPipe()
  {
    close_read();
    close_write();
  }
  void close_read() { read_end = close_fd(read_end); }
  void close_write() { write_end = close_fd(write_end); }
  static int close_fd(int fd)
  {
    if (fd >= 0) ::close(fd);
    return -1;
  }
};

/// Starts the program; returns its pid, or -1 with `error` set to the errno of a failed exec (glibc's posix_spawnp
/// reports it).
pid_t spawn_program(const ProgramCall& call, int out_fd, int err_fd, int& error)
{
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_adddup2(&actions, out_fd, STDOUT_FILENO);
  posix_spawn_file_actions_adddup2(&actions, err_fd, STDERR_FILENO);
  posix_spawn_file_actions_addclosefrom_np(&actions, STDERR_FILENO + 1); // not the pipes of a process pool
  if (!call.working_dir.empty()) posix_spawn_file_actions_addchdir_np(&actions, call.working_dir.c_str());
  posix_spawnattr_t attributes;
  posix_spawnattr_init(&attributes);
  sigset_t no_signals;
  sigemptyset(&no_signals);
  posix_spawnattr_setsigmask(&attributes, &no_signals);
  short flags = POSIX_SPAWN_SETSIGMASK;
  if (call.timeout > 0) { // its own group: the deadline kills its children too
    flags = static_cast<short>(flags | POSIX_SPAWN_SETPGROUP);
    posix_spawnattr_setpgroup(&attributes, 0);
  }
  posix_spawnattr_setflags(&attributes, flags);
  std::vector<std::string> args = call.argv;
  std::vector<char*> c_args;
  for (auto& a : args)
    c_args.push_back(a.data());
  c_args.push_back(nullptr);
  pid_t pid = 0;
  error     = ::posix_spawnp(&pid, c_args[0], &actions, &attributes, c_args.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  posix_spawnattr_destroy(&attributes);
  return error == 0 ? pid : -1;
}

/// Why a program could not be started, in words.
std::string spawn_failure(const std::string& program, int error)
{
  if (error != ENOENT) return std::strerror(error);
  return program.find('/') != std::string::npos ? "no such file" : "no such program in PATH";
}

/// Milliseconds until the deadline (at least 0), or -1 (poll's "forever") without one.
int poll_wait(bool limited, ProgramClock::time_point deadline)
{
  if (!limited) return -1;
  auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - ProgramClock::now()).count();
  return static_cast<int>(std::clamp<long long>(left + 1, 0, 1000));
}

/// Reads both pipes until both end; false when the deadline passed first.
bool read_outputs(ProgramPipe& out, ProgramPipe* err, ProgramResult& result, bool limited,
                  ProgramClock::time_point deadline)
{
  for (;;) {
    std::vector<pollfd> fds;
    if (out.read_end >= 0) fds.push_back({out.read_end, POLLIN, 0});
    if (err && err->read_end >= 0) fds.push_back({err->read_end, POLLIN, 0});
    if (fds.empty()) return true;
    if (limited && ProgramClock::now() >= deadline) return false;
    int ready = ::poll(fds.data(), fds.size(), poll_wait(limited, deadline));
    if (ready < 0 && errno != EINTR)
      throw std::runtime_error(fmt::format("cannot run {}: poll(): {}", result.program, std::strerror(errno)));
    for (const pollfd& p : fds) {
      if (ready <= 0 || p.revents == 0) continue;
      bool is_out = p.fd == out.read_end;
      char buffer[65536];
      ssize_t got = ::read(p.fd, buffer, sizeof buffer);
      if (got > 0)
        (is_out ? result.out : result.err).append(buffer, static_cast<std::size_t>(got));
      else if (got == 0 || errno != EINTR)
        is_out ? out.close_read() : err->close_read();
    }
  }
}

/// Waits for the program (which closed its outputs) to end; false when the deadline passed first.
bool wait_exit(pid_t pid, int& status, bool limited, ProgramClock::time_point deadline)
{
  for (auto pause = std::chrono::microseconds(200);; pause = std::min(2 * pause, std::chrono::microseconds(50000))) {
    pid_t got = ::waitpid(pid, &status, limited ? WNOHANG : 0);
    if (got == pid) return true;
    if (got < 0 && errno != EINTR) throw std::logic_error("waitpid lost a program it started");
    if (limited && ProgramClock::now() >= deadline) return false;
    if (got == 0) std::this_thread::sleep_for(pause);
  }
}

/// Kills the program (and its group when it has its own: a program with a deadline) and reaps it.
void kill_program(pid_t pid, bool own_group)
{
  ::kill(own_group ? -pid : pid, SIGKILL);
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
}

void set_exit(ProgramResult& result, int status)
{
  if (WIFSIGNALED(status)) {
    result.status = ProgramStatus::signalled;
    result.signal = WTERMSIG(status);
    return;
  }
  result.status    = ProgramStatus::exited;
  result.exit_code = WEXITSTATUS(status);
  if (result.exit_code == 127 && result.out.empty() && result.err.empty()) {
    result.status = ProgramStatus::not_found;
    result.err    = "exit code 127 without output";
  }
}

std::string trimmed(std::string text)
{
  while (!text.empty() && (text.back() == '\n' || text.back() == '\r' || text.back() == ' '))
    text.pop_back();
  return text;
}

} // namespace

ProgramResult run_program(const ProgramCall& call)
{
  if (call.argv.empty() || call.argv[0].empty()) throw std::invalid_argument("run_program: no program to run");
  ProgramResult result;
  result.program = call.argv[0];
  result.timeout = call.timeout;
  ProgramPipe out(result.program);
  std::optional<ProgramPipe> err;
  if (!call.merge_stderr) err.emplace(result.program);
  auto start    = ProgramClock::now();
  bool limited  = call.timeout > 0;
  auto deadline = start + std::chrono::duration_cast<ProgramClock::duration>(
                              std::chrono::duration<double>(limited ? call.timeout : 0.0));
  int error = 0;
  pid_t pid = spawn_program(call, out.write_end, err ? err->write_end : out.write_end, error);
  out.close_write();
  if (err) err->close_write();
  if (pid < 0) {
    result.spawn_error = error;
    result.err         = spawn_failure(result.program, error);
    return result;
  }
  int status = 0;
  bool ended = false;
  try {
    ended = read_outputs(out, err ? &*err : nullptr, result, limited, deadline) &&
            wait_exit(pid, status, limited, deadline);
  } catch (...) {
    kill_program(pid, limited);
    throw;
  }
  result.seconds = std::chrono::duration<double>(ProgramClock::now() - start).count();
  if (!ended) {
    kill_program(pid, limited);
    result.status = ProgramStatus::timed_out;
    return result;
  }
  set_exit(result, status);
  return result;
}

std::string ProgramResult::describe() const
{
  std::string words = trimmed(err.empty() ? out : err);
  std::string said  = words.empty() ? "" : ":\n" + words;
  switch (status) {
  case ProgramStatus::exited:
    if (exit_code == 0) return fmt::format("{} exited with code 0", program);
    return fmt::format("{} failed (exit code {}){}", program, exit_code, said);
  case ProgramStatus::not_found:
    return fmt::format("{} not found ({})", program, err);
  case ProgramStatus::signalled:
    return fmt::format("{} killed by signal {} ({}){}", program, signal, strsignal(signal), said);
  case ProgramStatus::timed_out:
    return fmt::format("{} did not finish within {} s{}", program, timeout, said);
  }
  return program;
}

void ProgramResult::check(const std::string& hint) const
{
  if (ok()) return;
  std::string message = describe();
  if (!hint.empty()) {
    std::size_t end = std::min(message.find(":\n"), message.size());
    message.insert(end, "; " + hint);
  }
  if (status == ProgramStatus::not_found) // named by an option or looked up on PATH: the program is the "option"
    throw InputError::option(program, message.substr(std::min(program.size() + 1, message.size())));
  throw std::runtime_error(message);
}

std::string find_program(const std::string& name)
{
  namespace fs    = std::filesystem;
  auto executable = [](const fs::path& p) { return ::access(p.c_str(), X_OK) == 0 && !fs::is_directory(p); };
  if (name.find('/') != std::string::npos) return executable(name) ? fs::absolute(name).string() : "";
  const char* path = std::getenv("PATH");
  std::istringstream dirs(path ? path : "/usr/bin:/bin");
  for (std::string dir; std::getline(dirs, dir, ':');) {
    fs::path candidate = fs::path(dir.empty() ? "." : dir) / name;
    if (executable(candidate)) return candidate.string();
  }
  return "";
}

} // namespace pipesim
