// SLURM's command-line tools: job states, squeue and sbatch output, commands run with a time limit.
#include "validation/campaigns/slurm_queue.hpp"

#include <fmt/format.h>
#include <sstream>
#include <utility>

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

ProgramResult run_slurm_tool(const SlurmTools& tools, std::vector<std::string> argv)
{
  ProgramCall call;
  call.argv         = std::move(argv);
  call.timeout      = tools.timeout;
  call.merge_stderr = true;
  return run_program(call);
}

std::optional<std::vector<SlurmJob>> query_jobs(const SlurmTools& tools, const std::vector<long>& ids,
                                                std::string& error)
{
  if (ids.empty()) return std::vector<SlurmJob>{};
  std::string list;
  for (long id : ids)
    list += (list.empty() ? "" : ",") + std::to_string(id);
  ProgramResult r = run_slurm_tool(
      tools, {tools.squeue, "--noheader", "--array", "--states=all", "--jobs=" + list, "--format=%A|%F|%K|%T|%r"});
  if (r.ok()) return parse_squeue(r.out);
  bool ran = r.status == ProgramStatus::exited || r.status == ProgramStatus::signalled;
  if (ran && r.out.find("Invalid job id") != std::string::npos)
    return std::vector<SlurmJob>{}; // none of the ids is known any more
  error = r.status == ProgramStatus::not_found ? fmt::format("{} not found", tools.squeue)
          : r.status == ProgramStatus::timed_out
              ? fmt::format("{} did not answer within {} s", tools.squeue, tools.timeout)
              : fmt::format("{} failed: {}", tools.squeue, r.out);
  while (!error.empty() && error.back() == '\n')
    error.pop_back();
  return std::nullopt;
}

} // namespace pipesim
