// Frames of a pool child's pipe (base/job_report.hpp).
#include "base/job_report.hpp"

#include "base/input_error.hpp"

#include <cerrno>
#include <cstdint>
#include <cstring>
#include <fmt/format.h>
#include <new>
#include <stdexcept>
#include <sys/wait.h>
#include <unistd.h>

namespace pipesim::pool_detail {

namespace {

/// Writes everything; false on failure.
bool write_all(int fd, const char* p, std::size_t left)
{
  while (left > 0) {
    ssize_t n = ::write(fd, p, left);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    p += n;
    left -= static_cast<std::size_t>(n);
  }
  return true;
}

// One outcome on a pipe: this header, then `length` bytes of text. Both ends are the same program (fork, no exec).
struct FrameHeader {
  std::uint8_t status;
  std::uint8_t worker;
  std::uint8_t fields; // 1: the text is a serialized InputError (bad_input)
  std::int32_t signal;
  std::int32_t exit_code;
  double seconds;
  std::uint64_t length;
};

} // namespace

bool send_frame(int fd, const JobOutcome& o)
{
  FrameHeader h;
  std::memset(&h, 0, sizeof h); // no uninitialised padding on the pipe
  h.status    = static_cast<std::uint8_t>(o.status);
  h.worker    = o.worker ? 1 : 0;
  h.signal    = o.signal;
  h.exit_code = o.exit_code;
  h.seconds   = o.seconds;
  std::string fields; // a bad input travels as its fields, so the parent can still attach its place
  if (o.status == JobStatus::bad_input && o.error) fields = o.error->serialize();
  const std::string& text = o.error && o.status == JobStatus::bad_input ? fields : o.text;
  h.fields                = o.error && o.status == JobStatus::bad_input ? 1 : 0;
  h.length                = text.size();
  return write_all(fd, reinterpret_cast<const char*>(&h), sizeof h) && write_all(fd, text.data(), text.size());
}

bool take_frame(std::string& buffer, JobOutcome& o)
{
  if (buffer.size() < sizeof(FrameHeader)) return false;
  FrameHeader h;
  std::memcpy(&h, buffer.data(), sizeof h);
  std::size_t size = sizeof h + h.length;
  if (buffer.size() < size) {
    buffer.reserve(size);
    return false;
  }
  o.status    = static_cast<JobStatus>(h.status);
  o.worker    = h.worker != 0;
  o.signal    = h.signal;
  o.exit_code = h.exit_code;
  o.seconds   = h.seconds;
  if (buffer.size() == size) {
    o.text = std::move(buffer);
    o.text.erase(0, sizeof h);
    buffer.clear();
  } else {
    o.text = buffer.substr(sizeof h, h.length);
    buffer.erase(0, size);
  }
  o.error.reset();
  if (h.fields != 0) {
    o.error = InputError::deserialize(o.text);
    o.text  = o.error->what();
  }
  return true;
}

JobOutcome caught(const std::function<std::string()>& f)
{
  JobOutcome o;
  try {
    o.text   = f();
    o.status = JobStatus::finished;
  } catch (const InputError& e) {
    o = {.status = JobStatus::bad_input, .text = e.what(), .error = e};
  } catch (const std::bad_alloc&) {
    o = {.status = JobStatus::out_of_memory, .text = "a memory allocation failed (std::bad_alloc)"};
  } catch (const std::exception& e) {
    o = {.status = JobStatus::failed, .text = e.what()};
  } catch (...) {
    o = {.status = JobStatus::failed, .text = "unknown exception (not derived from std::exception)"};
  }
  return o;
}

JobOutcome death(int status, bool worker)
{
  JobOutcome o;
  o.worker        = worker;
  const char* who = worker ? "worker" : "simulation";
  if (WIFSIGNALED(status)) {
    o.signal = WTERMSIG(status);
    o.text   = fmt::format("{} process died: signal {} ({})", who, o.signal, strsignal(o.signal));
    return o;
  }
  o.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  o.text      = fmt::format("{} process died: exit code {}{}", who, o.exit_code,
                       o.exit_code == 0 ? " before sending a result" : "");
  return o;
}

} // namespace pipesim::pool_detail
