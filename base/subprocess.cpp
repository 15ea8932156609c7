// fork() + pipe protocol for run_in_child: a one-byte tag ('R' result, 'I' InputError, 'E' other error) and a payload.
#include "base/subprocess.hpp"

#include "base/input_error.hpp"

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fmt/format.h>
#include <iostream>
#include <poll.h>
#include <stdexcept>
#include <sys/wait.h>
#include <unistd.h>

namespace pipesim {

namespace {

std::string system_error(const char* what)
{
  return fmt::format("run_in_child: {} failed: {}", what, std::strerror(errno));
}

/// Writes everything; false on failure (the child then exits with code 3, which the parent reports).
bool write_all(int fd, const std::string& data)
{
  const char* p    = data.data();
  std::size_t left = data.size();
  while (left > 0) {
    ssize_t n = ::write(fd, p, left);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    p += n;
    left -= static_cast<std::size_t>(n);
  }
  return true;
}

std::string read_all(int fd)
{
  std::string out;
  char buffer[65536];
  for (;;) {
    ssize_t n = ::read(fd, buffer, sizeof buffer);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    out.append(buffer, static_cast<std::size_t>(n));
  }
  return out;
}

/// Runs `f`: its result, or the error it threw (typed as ChildOutcome says).
ChildOutcome caught(const std::function<std::string()>& f)
{
  try {
    return {true, false, f()};
  } catch (const InputError& e) {
    return {false, true, e.what()};
  } catch (const std::exception& e) {
    return {false, false, e.what()};
  } catch (...) {
    return {false, false, "unknown exception (not derived from std::exception)"};
  }
}

[[noreturn]] void child_main(int fd, const std::function<std::string()>& job)
{
  ChildOutcome o = caught(job);
  char tag       = o.ok ? 'R' : (o.input_error ? 'I' : 'E');
  bool sent      = write_all(fd, tag + o.text);
  ::close(fd);
  std::fflush(stdout);
  std::fflush(stderr);
  ::_exit(sent ? 0 : 3);
}

void flush_output()
{
  std::cout.flush();
  std::cerr.flush();
  std::fflush(stdout);
  std::fflush(stderr);
}

/// A child process and the read end of the pipe it writes to.
struct Forked {
  pid_t pid = -1;
  int fd    = -1;
};

/// Forks with a pipe. The child closes the read end and the parent's other pipes (`parent_fds`), then runs `child`
/// with the write end: `child` must end the process. Throws std::runtime_error when pipe or fork fail.
template <typename Child>
Forked fork_with_pipe(const std::vector<int>& parent_fds, Child&& child)
{
  int fds[2];
  if (::pipe(fds) != 0) throw std::runtime_error(system_error("pipe()"));
  pid_t pid = ::fork();
  if (pid < 0) {
    ::close(fds[0]);
    ::close(fds[1]);
    throw std::runtime_error(system_error("fork()"));
  }
  if (pid == 0) {
    ::close(fds[0]);
    for (int fd : parent_fds)
      ::close(fd);
    child(fds[1]);
    ::_exit(4); // not reached: child ends the process
  }
  ::close(fds[1]);
  return {pid, fds[0]};
}

ChildOutcome decode(const std::string& message, int status)
{
  ChildOutcome o;
  if (WIFSIGNALED(status)) {
    int sig = WTERMSIG(status);
    o.text  = fmt::format("simulation process died: signal {} ({})", sig, strsignal(sig));
    return o;
  }
  int code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  if (code != 0 || message.empty()) {
    o.text = fmt::format("simulation process died: exit code {}{}", code, code == 0 ? " before sending a result" : "");
    return o;
  }
  o.ok          = message[0] == 'R';
  o.input_error = message[0] == 'I';
  o.text        = message.substr(1);
  return o;
}
} // namespace

std::vector<ChildOutcome> run_in_children(int count, int jobs, const std::function<std::string(int)>& job)
{
  struct Running {
    pid_t pid = -1;
    int fd    = -1;
    int index = 0;
    std::string message;
  };
  std::vector<ChildOutcome> outcomes(static_cast<std::size_t>(std::max(count, 0)));
  std::vector<Running> running;
  int next = 0;
  jobs     = std::max(jobs, 1);
  flush_output();
  while (next < count || !running.empty()) {
    while (next < count && static_cast<int>(running.size()) < jobs) {
      std::vector<int> open;
      for (const auto& r : running)
        open.push_back(r.fd);
      int index    = next++;
      Forked child = fork_with_pipe(open, [&](int fd) { child_main(fd, [&] { return job(index); }); });
      running.push_back({child.pid, child.fd, index, {}});
    }
    std::vector<pollfd> polls;
    for (const auto& r : running)
      polls.push_back({r.fd, POLLIN, 0});
    if (::poll(polls.data(), polls.size(), -1) < 0) {
      if (errno == EINTR) continue;
      throw std::runtime_error(system_error("poll()"));
    }
    for (std::size_t i = running.size(); i-- > 0;) {
      if (polls[i].revents == 0) continue;
      char buffer[65536];
      ssize_t n = ::read(running[i].fd, buffer, sizeof buffer);
      if (n < 0 && errno == EINTR) continue;
      if (n > 0) {
        running[i].message.append(buffer, static_cast<std::size_t>(n));
        continue;
      }
      ::close(running[i].fd);
      int status = 0;
      while (::waitpid(running[i].pid, &status, 0) < 0)
        if (errno != EINTR) throw std::runtime_error(system_error("waitpid()"));
      outcomes[static_cast<std::size_t>(running[i].index)] = decode(running[i].message, status);
      running.erase(running.begin() + static_cast<std::ptrdiff_t>(i));
    }
  }
  return outcomes;
}

namespace {

// A worker's report of one job: index (int32), ok and input_error (one byte each), the text's length (uint64), text.
std::string frame(int index, const ChildOutcome& o)
{
  std::string f(4 + 2 + 8, '\0');
  auto i32 = static_cast<std::int32_t>(index);
  auto len = static_cast<std::uint64_t>(o.text.size());
  std::memcpy(f.data(), &i32, 4);
  f[4] = o.ok ? 1 : 0;
  f[5] = o.input_error ? 1 : 0;
  std::memcpy(f.data() + 6, &len, 8);
  return f + o.text;
}

/// Reads the frames of a worker's output into `outcomes`; returns the indices it reported.
std::vector<int> read_frames(const std::string& data, std::vector<ChildOutcome>& outcomes)
{
  std::vector<int> seen;
  std::size_t at = 0;
  while (data.size() - at >= 14) {
    std::int32_t index = 0;
    std::uint64_t len  = 0;
    std::memcpy(&index, data.data() + at, 4);
    std::memcpy(&len, data.data() + at + 6, 8);
    if (data.size() - at - 14 < len) break; // cut short: the worker died while writing
    ChildOutcome& o = outcomes.at(static_cast<std::size_t>(index));
    o.ok            = data[at + 4] != 0;
    o.input_error   = data[at + 5] != 0;
    o.text          = data.substr(at + 14, len);
    seen.push_back(index);
    at += 14 + len;
  }
  return seen;
}

[[noreturn]] void worker_main(int fd, int first, int count, int stride, const std::function<void()>& prepare,
                              const std::function<std::string(int)>& job)
{
  ChildOutcome failed = caught([&] { // ok: prepared; otherwise prepare's error, for every job
    prepare();
    return std::string();
  });
  bool prepared       = failed.ok;
  bool sent           = true;
  for (int i = first; i < count && sent; i += stride) {
    ChildOutcome o = failed;
    if (prepared) {
      try {
        o = run_in_children(1, 1, [&](int) {
              ::close(fd); // the worker's report pipe: only the worker writes to it
              return job(i);
            }).front();
      } catch (const std::exception& e) { // fork or pipe failed
        o = {false, false, e.what()};
      }
    }
    sent = write_all(fd, frame(i, o));
  }
  ::close(fd);
  std::fflush(stdout);
  std::fflush(stderr);
  ::_exit(sent ? 0 : 3);
}

} // namespace

std::vector<ChildOutcome> run_in_prepared_children(int count, int jobs, const std::function<void()>& prepare,
                                                   const std::function<std::string(int)>& job)
{
  struct Worker {
    pid_t pid = -1;
    int fd    = -1;
    std::string data;
  };
  std::vector<ChildOutcome> outcomes(static_cast<std::size_t>(std::max(count, 0)));
  if (count <= 0) return outcomes;
  jobs = std::clamp(jobs, 1, count);
  flush_output();
  std::vector<Worker> workers;
  for (int w = 0; w < jobs; ++w) {
    std::vector<int> open;
    for (const auto& other : workers)
      open.push_back(other.fd);
    Forked worker = fork_with_pipe(open, [&](int fd) { worker_main(fd, w, count, jobs, prepare, job); });
    workers.push_back({worker.pid, worker.fd, {}});
  }
  std::vector<bool> open(workers.size(), true);
  for (std::size_t left = workers.size(); left > 0;) {
    std::vector<pollfd> polls;
    std::vector<std::size_t> which;
    for (std::size_t w = 0; w < workers.size(); ++w)
      if (open[w]) {
        polls.push_back({workers[w].fd, POLLIN, 0});
        which.push_back(w);
      }
    if (::poll(polls.data(), polls.size(), -1) < 0) {
      if (errno == EINTR) continue;
      throw std::runtime_error(system_error("poll()"));
    }
    for (std::size_t i = 0; i < polls.size(); ++i) {
      if (polls[i].revents == 0) continue;
      Worker& worker = workers[which[i]];
      char buffer[65536];
      ssize_t n = ::read(worker.fd, buffer, sizeof buffer);
      if (n < 0 && errno == EINTR) continue;
      if (n > 0) {
        worker.data.append(buffer, static_cast<std::size_t>(n));
        continue;
      }
      ::close(worker.fd);
      open[which[i]] = false;
      --left;
    }
  }
  std::vector<bool> reported(outcomes.size(), false);
  for (std::size_t w = 0; w < workers.size(); ++w) {
    int status = 0;
    while (::waitpid(workers[w].pid, &status, 0) < 0)
      if (errno != EINTR) throw std::runtime_error(system_error("waitpid()"));
    for (int i : read_frames(workers[w].data, outcomes))
      reported[static_cast<std::size_t>(i)] = true;
    ChildOutcome died = decode({}, status); // the worker's end, for the jobs it did not report
    died.text         = "worker " + died.text.substr(std::string("simulation ").size());
    for (int i = static_cast<int>(w); i < count; i += jobs)
      if (!reported[static_cast<std::size_t>(i)]) outcomes[static_cast<std::size_t>(i)] = died;
  }
  return outcomes;
}

std::string run_in_child(const std::function<std::string()>& job)
{
  flush_output();
  auto [pid, fd] = fork_with_pipe({}, [&](int write_fd) { child_main(write_fd, job); });
  // Read before waiting: a result larger than the pipe buffer would otherwise block the child forever.
  std::string message = read_all(fd);
  ::close(fd);
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0)
    if (errno != EINTR) throw std::runtime_error(system_error("waitpid()"));

  if (WIFSIGNALED(status)) {
    int sig = WTERMSIG(status);
    throw std::runtime_error(fmt::format("simulation process died: signal {} ({})", sig, strsignal(sig)));
  }
  int code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  if (code != 0 || message.empty())
    throw std::runtime_error(
        fmt::format("simulation process died: exit code {}{}", code, code == 0 ? " before sending a result" : ""));
  std::string payload = message.substr(1);
  switch (message[0]) {
  case 'R':
    return payload;
  case 'I':
    throw InputError(payload);
  default:
    throw std::runtime_error(payload);
  }
}

} // namespace pipesim
