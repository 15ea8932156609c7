// How a process-pool child reports its jobs (internal to base/subprocess.cpp, apart to be tested alone): outcomes as
// frames on a pipe, and the outcomes made from a job's exception or from a process's death.
#pragma once

#include "base/subprocess.hpp"

#include <functional>
#include <string>

namespace pipesim::pool_detail {

/// Writes `o` to `fd` as one frame (a fixed header, then the text, never copied); false when the pipe fails.
bool send_frame(int fd, const JobOutcome& o);

/// Takes the first complete frame out of `buffer` (what was read so far) into `o`; false while it is incomplete.
/// Once a frame's header is in, the buffer is reserved for the whole frame, and a buffer holding exactly one frame is
/// moved into o.text: a result of hundreds of MB is held once.
bool take_frame(std::string& buffer, JobOutcome& o);

/// Runs `f`: finished with its result, or what it threw: InputError as bad_input, std::bad_alloc as out_of_memory,
/// anything else as failed.
JobOutcome caught(const std::function<std::string()>& f);

/// The outcome of a job whose process (or prepared worker, `worker`) ended with wait status `status` before sending
/// it: crashed, with the signal or the exit code and the text JobOutcome describes.
JobOutcome death(int status, bool worker);

} // namespace pipesim::pool_detail
