// The process's CPU time, the one clock the benchmarks measure CPU-bound rows with (a shared machine's wall clock
// counts the other processes too).
#pragma once

#include <ctime>

namespace pipesim::bench {

/// CPU seconds this process has used so far (CLOCK_PROCESS_CPUTIME_ID, all its threads).
inline double cpu_seconds()
{
  timespec ts{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + 1e-9 * static_cast<double>(ts.tv_nsec);
}

} // namespace pipesim::bench
