// The process pool: fork, one pipe per child carrying frames (a fixed header and the outcome's text), poll, per-job
// timeouts, process-group kill, and the one waitpid of every pool child (reap).
#include "base/subprocess.hpp"

#include "base/input_error.hpp"
#include "base/job_report.hpp"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <csignal>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fmt/format.h>
#include <iostream>
#include <poll.h>
#include <stdexcept>
#include <sys/wait.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif

namespace pipesim {

using namespace pool_detail;

namespace {

using Clock = std::chrono::steady_clock;

constexpr int memory_check_ms = 200; // how often a memory limit is checked: a process grows by GB/s at most

std::string system_error(const char* what)
{
  return fmt::format("process pool: {} failed: {}", what, std::strerror(errno));
}

double seconds_since(Clock::time_point start) { return std::chrono::duration<double>(Clock::now() - start).count(); }

/// The pipes of the pools running in this process: read ends in a parent, the write end of a pool child. A forked
/// child closes them all, so only a process's own child holds the write end its parent reads.
std::vector<int>& pool_fds()
{
  static std::vector<int> fds;
  return fds;
}

void close_pool_fd(int fd)
{
  auto& fds = pool_fds();
  fds.erase(std::remove(fds.begin(), fds.end(), fd), fds.end());
  ::close(fd);
}

PoolHooks& hooks()
{
  static PoolHooks h;
  return h;
}

void flush_output()
{
  std::cout.flush();
  std::cerr.flush();
  std::fflush(stdout);
  std::fflush(stderr);
}

/// First steps of a pool child: die with the parent, own process group, only its own pipe open.
void become_child(pid_t parent, int write_fd)
{
#ifdef __linux__
  ::prctl(PR_SET_PDEATHSIG, SIGKILL);
#endif
  if (::getppid() != parent) ::_exit(5); // the parent died before prctl: nobody reads the result
  ::setpgid(0, 0);
  for (int fd : pool_fds())
    ::close(fd);
  pool_fds().assign(1, write_fd);
}

[[noreturn]] void end_child(int fd, bool sent)
{
  ::close(fd);
  std::fflush(stdout);
  std::fflush(stderr);
  ::_exit(sent ? 0 : 3);
}

void kill_group(pid_t pid)
{
  ::kill(-pid, SIGKILL); // the child's group: what it started (a job's own helpers) dies with it
  ::kill(pid, SIGKILL);
}

/// The one waitpid of the pool: waits for a child that has closed its pipe (or was killed) and returns its status.
int reap(pid_t pid)
{
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0)
    if (errno != EINTR) throw std::runtime_error(system_error("waitpid()"));
  return status;
}

/// A prepared worker: prepare once, then its jobs one at a time, each in a child of its own (a pool of one), each
/// outcome sent to the parent as it ends.
[[noreturn]] void worker_main(int fd, const std::vector<int>& mine, const PoolOptions& options, const Job& job)
{
  JobOutcome prepared = caught([&] {
    options.prepare();
    return std::string();
  });
  bool sent           = true;
  auto send           = [&](int, JobOutcome&& o) {
    if (!send_frame(fd, o)) throw std::runtime_error("the pool's pipe is closed");
  };
  try {
    auto size = static_cast<int>(mine.size());
    if (prepared.ok())
      run_pool(
          size, {.jobs = 1, .timeout = options.timeout, .memory_limit = options.memory_limit},
          [&](int k) { return job(mine[static_cast<std::size_t>(k)]); }, send);
    else
      for (int k = 0; k < size; ++k)
        send(k, JobOutcome(prepared));
  } catch (const std::exception&) { // the parent is gone, or fork failed: the parent reports the rest as a death
    sent = false;
  }
  end_child(fd, sent);
}

/// A running child: a job's process, or a prepared worker running several jobs.
struct Child {
  pid_t pid = -1;
  int fd    = -1;
  std::vector<int> jobs;    // the indices it runs, in the order it reports them
  std::size_t reported = 0; // how many of them have an outcome
  Clock::time_point start;
  bool timed_out     = false;
  bool out_of_memory = false;
  std::string buffer; // received, not yet a complete frame
};

class Pool {
public:
  Pool(int count, const Job& job, const PoolOptions& options, const JobDone& done)
      : count_(count), job_(job), options_(options), done_(done)
  {
  }
  Pool(const Pool&)            = delete;
  Pool& operator=(const Pool&) = delete;
  ~Pool();
  void run();

private:
  bool prepared() const { return static_cast<bool>(options_.prepare); }
  template <typename Main>
  void fork_child(std::vector<int> jobs, Main&& main);
  void spawn_workers();
  int poll_timeout_ms() const;
  void wait_and_read();
  bool read_from(Child& c);
  void kill_overdue();
  void finish(std::size_t i);
  void deliver(Child& c, JobOutcome&& o);

  int count_;
  const Job& job_;
  const PoolOptions& options_;
  const JobDone& done_;
  int next_ = 0; // the next job to start (direct mode)
  std::vector<Child> children_;
};

Pool::~Pool()
{
  for (Child& c : children_) { // only when an exception leaves run()
    kill_group(c.pid);
    close_pool_fd(c.fd);
    try {
      reap(c.pid);
    } catch (const std::exception&) { // already reaped elsewhere: nothing left to wait for
    }
  }
}

/// Forks a child that runs `main(write_fd)` (which must end the process). Throws std::runtime_error when pipe or
/// fork fail.
template <typename Main>
void Pool::fork_child(std::vector<int> jobs, Main&& main)
{
  int fds[2];
  if (::pipe(fds) != 0) throw std::runtime_error(system_error("pipe()"));
  flush_output(); // or the child's final flush writes this process's buffered output a second time
  pid_t parent = ::getpid();
  if (hooks().before_fork) hooks().before_fork();
  pid_t pid      = ::fork();
  int fork_errno = errno;
  if (hooks().after_fork) hooks().after_fork(pid == 0);
  errno = fork_errno;
  if (pid < 0) {
    ::close(fds[0]);
    ::close(fds[1]);
    throw std::runtime_error(system_error("fork()"));
  }
  if (pid == 0) {
    ::close(fds[0]);
    become_child(parent, fds[1]);
    main(fds[1]);
    ::_exit(4); // not reached
  }
  ::setpgid(pid, pid); // here too: the group exists before any kill, whoever runs first
  ::close(fds[1]);
  pool_fds().push_back(fds[0]);
  Child c;
  c.pid   = pid;
  c.fd    = fds[0];
  c.jobs  = std::move(jobs);
  c.start = Clock::now();
  children_.push_back(std::move(c));
}

void Pool::spawn_workers()
{
  int workers = std::clamp(options_.jobs, 1, count_);
  for (int w = 0; w < workers; ++w) {
    std::vector<int> mine;
    for (int i = w; i < count_; i += workers)
      mine.push_back(i);
    fork_child(mine, [&](int fd) { worker_main(fd, mine, options_, job_); });
  }
  next_ = count_;
}

void Pool::run()
{
  if (prepared()) spawn_workers();
  int jobs = std::max(options_.jobs, 1);
  while (next_ < count_ || !children_.empty()) {
    while (next_ < count_ && static_cast<int>(children_.size()) < jobs) {
      int index = next_++;
      fork_child({index}, [&](int fd) { end_child(fd, send_frame(fd, caught([&] { return job_(index); }))); });
    }
    wait_and_read();
    kill_overdue();
  }
}

/// Until the nearest deadline of a direct child (prepared workers time their jobs themselves), at most the interval of
/// the memory checks; -1: no deadline.
int Pool::poll_timeout_ms() const
{
  int check = hooks().check_interrupt ? 100 : -1; // a signal may come just before poll(), which then never sees it
  if (prepared()) return check;
  if (options_.memory_limit > 0 && !children_.empty()) // a memory limit is checked every memory_check_ms
    check = check < 0 ? memory_check_ms : std::min(check, memory_check_ms);
  if (options_.timeout <= 0) return check;
  double wait = -1;
  for (const Child& c : children_)
    if (!c.timed_out && c.reported < c.jobs.size()) {
      double left = std::clamp(options_.timeout - seconds_since(c.start), 0.0, 3600.0);
      wait        = wait < 0 ? left : std::min(wait, left);
    }
  int deadline = wait < 0 ? -1 : static_cast<int>(std::ceil(wait * 1000));
  return deadline < 0 || check < 0 ? std::max(deadline, check) : std::min(deadline, check);
}

void Pool::wait_and_read()
{
  std::vector<pollfd> polls;
  for (const Child& c : children_)
    polls.push_back({c.fd, POLLIN, 0});
  int ready      = ::poll(polls.data(), polls.size(), poll_timeout_ms());
  int poll_errno = errno;
  if (hooks().check_interrupt) hooks().check_interrupt(); // throws to stop: ~Pool kills and reaps the children
  if (ready < 0) {
    if (poll_errno == EINTR) return;
    errno = poll_errno;
    throw std::runtime_error(system_error("poll()"));
  }
  for (std::size_t i = children_.size(); i-- > 0;) // backwards: finish(i) erases child i
    if (polls[i].revents != 0 && !read_from(children_[i])) finish(i);
}

/// Reads what the child sent and delivers the frames it completes; false at the end of its pipe.
bool Pool::read_from(Child& c)
{
  char chunk[65536];
  ssize_t n = ::read(c.fd, chunk, sizeof chunk);
  if (n < 0 && errno == EINTR) return true;
  if (n <= 0) return false;
  c.buffer.append(chunk, static_cast<std::size_t>(n));
  JobOutcome o;
  while (c.reported < c.jobs.size() && take_frame(c.buffer, o))
    deliver(c, std::move(o));
  return true;
}

void Pool::kill_overdue()
{
  if (prepared()) return;
  for (Child& c : children_) {
    if (c.timed_out || c.out_of_memory || c.reported >= c.jobs.size()) continue;
    if (options_.timeout > 0 && seconds_since(c.start) >= options_.timeout) {
      kill_group(c.pid);
      c.timed_out = true;
    } else if (options_.memory_limit > 0 && resident_bytes(c.pid) > options_.memory_limit) {
      kill_group(c.pid);
      c.out_of_memory = true;
    }
  }
}

/// The child closed its pipe: reap it; the jobs it did not report timed out or died with it.
void Pool::finish(std::size_t i)
{
  Child c = std::move(children_[i]);
  children_.erase(children_.begin() + static_cast<std::ptrdiff_t>(i));
  close_pool_fd(c.fd);
  int status = reap(c.pid);
  while (c.reported < c.jobs.size()) {
    JobOutcome o = death(status, prepared());
    if (c.timed_out)
      o = {.status = JobStatus::timed_out, .text = fmt::format("timed out after {} s", options_.timeout)};
    if (c.out_of_memory)
      o = {.status = JobStatus::out_of_memory,
           .text   = fmt::format("used more than {:.0f} bytes of memory", options_.memory_limit)};
    deliver(c, std::move(o));
  }
}

void Pool::deliver(Child& c, JobOutcome&& o)
{
  int index = c.jobs[c.reported++];
  if (!prepared()) o.seconds = seconds_since(c.start); // a worker's frames carry the job's own time
  done_(index, std::move(o));
}

} // namespace

void set_pool_hooks(PoolHooks h) { hooks() = std::move(h); }

void run_pool(int count, const PoolOptions& options, const Job& job, const JobDone& done)
{
  if (count <= 0) return;
  Pool pool(count, job, options, done);
  pool.run();
}

std::vector<JobOutcome> run_pool(int count, const PoolOptions& options, const Job& job)
{
  std::vector<JobOutcome> outcomes(static_cast<std::size_t>(std::max(count, 0)));
  run_pool(count, options, job, [&](int i, JobOutcome&& o) { outcomes[static_cast<std::size_t>(i)] = std::move(o); });
  return outcomes;
}

double resident_bytes(int pid)
{
  std::FILE* f = std::fopen(fmt::format("/proc/{}/statm", pid).c_str(), "r");
  if (f == nullptr) return 0;
  unsigned long size = 0, resident = 0;
  int read = std::fscanf(f, "%lu %lu", &size, &resident);
  std::fclose(f);
  return read == 2 ? static_cast<double>(resident) * static_cast<double>(::sysconf(_SC_PAGESIZE)) : 0;
}

std::string run_in_child(const std::function<std::string()>& job)
{
  JobOutcome o = std::move(run_pool(1, {}, [&](int) { return job(); }).front());
  switch (o.status) {
  case JobStatus::finished:
    return std::move(o.text);
  case JobStatus::bad_input:
    throw o.input_error();
  default:
    throw std::runtime_error(o.text);
  }
}

} // namespace pipesim
