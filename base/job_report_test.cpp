// Tests of the frames a pool child sends: whole outcomes back from bytes arriving in pieces, and the outcomes of
// exceptions and deaths.
#include "base/job_report.hpp"

#include "base/input_error.hpp"

#include <csignal>
#include <gtest/gtest.h>
#include <stdexcept>
#include <unistd.h>

namespace pipesim::pool_detail {
namespace {

/// The bytes send_frame writes for `o`.
std::string frame_bytes(const JobOutcome& o)
{
  int fds[2];
  EXPECT_EQ(::pipe(fds), 0);
  EXPECT_TRUE(send_frame(fds[1], o)); // small: fits in the pipe's buffer
  ::close(fds[1]);
  std::string bytes;
  char chunk[4096];
  for (ssize_t n; (n = ::read(fds[0], chunk, sizeof chunk)) > 0;)
    bytes.append(chunk, static_cast<std::size_t>(n));
  ::close(fds[0]);
  return bytes;
}

TEST(JobReport, FramesComeBackWholeFromPieces)
{
  JobOutcome first{.status = JobStatus::finished, .text = std::string(1000, 'r'), .seconds = 1.5};
  JobOutcome second{
      .status = JobStatus::crashed, .text = "worker process died: signal 9 (Killed)", .signal = 9, .worker = true};
  std::string bytes = frame_bytes(first) + frame_bytes(second);
  std::string buffer;
  std::vector<JobOutcome> got;
  for (char byte : bytes) { // one byte at a time, as a slow pipe may deliver them
    buffer.push_back(byte);
    JobOutcome o;
    while (take_frame(buffer, o))
      got.push_back(o);
  }
  ASSERT_EQ(got.size(), 2u);
  EXPECT_TRUE(buffer.empty());
  EXPECT_EQ(got[0].status, JobStatus::finished);
  EXPECT_EQ(got[0].text, first.text);
  EXPECT_EQ(got[0].seconds, 1.5);
  EXPECT_EQ(got[1].status, JobStatus::crashed);
  EXPECT_EQ(got[1].text, second.text);
  EXPECT_EQ(got[1].signal, 9);
  EXPECT_TRUE(got[1].worker);
  // two frames read at once: both come out, in order
  buffer = bytes;
  JobOutcome o;
  ASSERT_TRUE(take_frame(buffer, o));
  EXPECT_EQ(o.text, first.text);
  ASSERT_TRUE(take_frame(buffer, o));
  EXPECT_EQ(o.text, second.text);
  EXPECT_FALSE(take_frame(buffer, o));
}

TEST(JobReport, ExceptionsAndDeathsBecomeOutcomes)
{
  EXPECT_EQ(caught([] { return std::string("r"); }).text, "r");
  JobOutcome bad = caught([]() -> std::string { throw InputError::at("a.yaml", 1, "k", "bad"); });
  EXPECT_EQ(bad.status, JobStatus::bad_input);
  EXPECT_EQ(bad.text, "a.yaml:1: key 'k': bad");
  JobOutcome failed = caught([]() -> std::string { throw 42; });
  EXPECT_EQ(failed.status, JobStatus::failed);
  EXPECT_EQ(failed.text, "unknown exception (not derived from std::exception)");
  // wait statuses as Linux encodes them: the signal in the low 7 bits, an exit code in bits 8..15
  JobOutcome killed = death(SIGKILL, false);
  EXPECT_EQ(killed.status, JobStatus::crashed);
  EXPECT_EQ(killed.signal, SIGKILL);
  EXPECT_EQ(killed.text, "simulation process died: signal 9 (Killed)");
  JobOutcome exited = death(7 << 8, true);
  EXPECT_EQ(exited.signal, 0);
  EXPECT_EQ(exited.exit_code, 7);
  EXPECT_EQ(exited.text, "worker process died: exit code 7");
  EXPECT_EQ(death(0, false).text, "simulation process died: exit code 0 before sending a result");
}

} // namespace
} // namespace pipesim::pool_detail
