// The wall-clock budget of one mapper run (MapperOptions::deadline()), the one time limit every mapper checks.
#pragma once

#include <chrono>

namespace pipesim {

/// Wall-clock budget of one solver run, counted from its construction.
class Deadline {
public:
  explicit Deadline(double seconds) : seconds_(seconds) {}
  bool expired() const { return elapsed() >= seconds_; }
  double seconds() const { return seconds_; }
  double elapsed() const
  {
    std::chrono::duration<double> seconds = std::chrono::steady_clock::now() - start_;
    return seconds.count();
  }

private:
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
  double seconds_;
};

/// Polls a deadline every `interval` search nodes, the interval adapting (1..1024) so that polls come about every
/// tenth of a millisecond to a millisecond whatever a node costs (large instances have expensive nodes).
class DeadlinePoll {
public:
  bool expired(const Deadline& deadline)
  {
    if (++calls_ < interval_) return false;
    calls_     = 0;
    double now = deadline.elapsed();
    double gap = now - last_;
    last_      = now;
    if (gap > 1e-3 && interval_ > 1)
      interval_ /= 2;
    else if (gap < 1e-4 && interval_ < 1024)
      interval_ *= 2;
    return now >= deadline.seconds();
  }

private:
  unsigned calls_    = 0;
  unsigned interval_ = 1;
  double last_       = 0;
};

} // namespace pipesim
