// SLURM's command-line tools: job states, squeue and sbatch output, commands run with a time limit.
#include "validation/slurm_queue.hpp"

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <fmt/format.h>
#include <poll.h>
#include <spawn.h>
#include <sstream>
#include <sys/wait.h>
#include <unistd.h>
#include <utility>

extern char** environ;

namespace pipesim {

namespace {

/// A decimal number filling the whole text, or nullopt.
std::optional<long> whole_number(const std::string& text)
{
  if (text.empty() || text.size() > 18) return std::nullopt;
  for (char c : text)
    if (c < '0' || c > '9') return std::nullopt;
  return std::stol(text);
}

pid_t spawn(const std::vector<std::string>& argv, int out_fd, int unused_fd)
{
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_adddup2(&actions, out_fd, STDOUT_FILENO);
  posix_spawn_file_actions_adddup2(&actions, out_fd, STDERR_FILENO);
  posix_spawn_file_actions_addclose(&actions, unused_fd);
  posix_spawnattr_t attributes;
  posix_spawnattr_init(&attributes);
  posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETPGROUP); // its own group: a timeout kills its children too
  posix_spawnattr_setpgroup(&attributes, 0);
  std::vector<std::string> args = argv;
  std::vector<char*> c_args;
  for (auto& a : args)
    c_args.push_back(a.data());
  c_args.push_back(nullptr);
  pid_t pid = 0;
  int rc    = posix_spawnp(&pid, c_args[0], &actions, &attributes, c_args.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  posix_spawnattr_destroy(&attributes);
  return rc == 0 ? pid : -1;
}

} // namespace

SlurmState slurm_state(const std::string& text) { return from_string<SlurmState>(text).value_or(SlurmState::unknown); }

bool in_queue(SlurmState state)
{
  switch (state) {
  case SlurmState::completed:
  case SlurmState::cancelled:
  case SlurmState::failed:
  case SlurmState::timeout:
  case SlurmState::node_fail:
  case SlurmState::preempted:
  case SlurmState::boot_fail:
  case SlurmState::deadline:
  case SlurmState::out_of_memory:
  case SlurmState::revoked:
    return false;
  default:
    return true;
  }
}

std::string blocked_reason(const SlurmJob& job)
{
  // SLURM's reasons (job_reason_string, SLURM 22.05) that no scheduling pass will clear
  static const std::vector<std::string> blocking{"JobHeldAdmin",       "JobHeldUser",        "JobHoldMaxRequeue",
                                                 "JobLaunchFailure",   "launch failed",      "held",
                                                 "DependencyNever",    "BadConstraints",     "InvalidAccount",
                                                 "InvalidQOS",         "QOSNotAllowed",      "AccountNotAllowed",
                                                 "PartitionDown",      "PartitionInactive",  "PartitionConfig",
                                                 "PartitionNodeLimit", "PartitionTimeLimit", "NodeDown",
                                                 "FrontEndDown",       "ReqNodeNotAvail",    "SystemFailure"};
  std::string reason = job.reason.empty() || job.reason == "None" ? "no reason given" : job.reason;
  std::string state  = std::string(to_string(job.state));
  switch (job.state) {
  case SlurmState::requeue_hold:
  case SlurmState::special_exit:
  case SlurmState::suspended:
  case SlurmState::stopped:
    return fmt::format("{}, {}", state, reason);
  case SlurmState::pending:
  case SlurmState::requeued:
    for (const auto& word : blocking)
      if (job.reason.find(word) != std::string::npos) return fmt::format("{}, {}", state, reason);
    return "";
  default:
    return "";
  }
}

std::string SlurmJob::name() const
{
  return array_task >= 0 ? fmt::format("{}_{}", array_job_id, array_task) : std::to_string(job_id);
}

std::vector<SlurmJob> parse_squeue(const std::string& output)
{
  std::vector<SlurmJob> jobs;
  std::istringstream in(output);
  for (std::string line; std::getline(in, line);) {
    std::vector<std::string> fields;
    std::istringstream split(line);
    for (std::string f; std::getline(split, f, '|');)
      fields.push_back(f);
    if (fields.size() < 4) continue;
    auto id    = whole_number(fields[0]);
    auto array = whole_number(fields[1]);
    if (!id || !array) continue;
    SlurmJob job;
    job.job_id       = *id;
    job.array_job_id = *array;
    auto task        = whole_number(fields[2]);
    job.array_task   = task ? static_cast<int>(*task) : -1; // "N/A" when not an array task
    job.state        = slurm_state(fields[3]);
    job.reason       = fields.size() > 4 ? fields[4] : "";
    jobs.push_back(job);
  }
  return jobs;
}

long parse_job_id(const std::string& output)
{
  std::string first = output.substr(0, output.find_first_of(";\n"));
  while (!first.empty() && (first.back() == '\r' || first.back() == ' '))
    first.pop_back();
  return whole_number(first).value_or(0);
}

CommandResult run_command(const std::vector<std::string>& argv, double timeout)
{
  CommandResult result;
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0) {
    result.output = fmt::format("pipe: {}", std::strerror(errno));
    return result;
  }
  pid_t pid = spawn(argv, fds[1], fds[0]);
  ::close(fds[1]);
  if (pid < 0) {
    ::close(fds[0]);
    result.output = fmt::format("{}: not found", argv.at(0));
    return result;
  }
  result.started = true;
  auto deadline  = std::chrono::steady_clock::now() + std::chrono::duration<double>(timeout);
  for (;;) {
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) {
      result.timed_out = true;
      ::kill(-pid, SIGKILL);
      break;
    }
    pollfd p{fds[0], POLLIN, 0};
    int ready = ::poll(&p, 1, static_cast<int>(std::min<long long>(left.count(), 1000)));
    if (ready < 0 && errno != EINTR) break;
    if (ready <= 0) continue;
    char buffer[4096];
    ssize_t got = ::read(fds[0], buffer, sizeof buffer);
    if (got > 0)
      result.output.append(buffer, static_cast<std::size_t>(got));
    else if (got == 0 || errno != EINTR)
      break;
  }
  ::close(fds[0]);
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (WIFEXITED(status)) result.exit_code = WEXITSTATUS(status);
  if (WIFEXITED(status) && result.exit_code == 127 && result.output.empty()) result.started = false;
  return result;
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

std::optional<std::vector<SlurmJob>> query_jobs(const SlurmTools& tools, const std::vector<long>& ids,
                                                std::string& error)
{
  if (ids.empty()) return std::vector<SlurmJob>{};
  std::string list;
  for (long id : ids)
    list += (list.empty() ? "" : ",") + std::to_string(id);
  CommandResult r =
      run_command({tools.squeue, "--noheader", "--array", "--states=all", "--jobs=" + list, "--format=%A|%F|%K|%T|%r"},
                  tools.timeout);
  if (r.ok()) return parse_squeue(r.output);
  if (r.started && !r.timed_out && r.output.find("Invalid job id") != std::string::npos)
    return std::vector<SlurmJob>{}; // none of the ids is known any more
  error = !r.started    ? fmt::format("{} not found", tools.squeue)
          : r.timed_out ? fmt::format("{} did not answer within {} s", tools.squeue, tools.timeout)
                        : fmt::format("{} failed: {}", tools.squeue, r.output);
  while (!error.empty() && error.back() == '\n')
    error.pop_back();
  return std::nullopt;
}

} // namespace pipesim
