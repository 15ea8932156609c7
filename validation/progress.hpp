// Campaign progress on stderr: runs done / total, rate, ETA, failures (a live line on a terminal, plain lines
// otherwise).
#pragma once

#include <chrono>
#include <string>

namespace pipesim {

class Progress {
public:
  Progress(std::string name, int total, bool quiet);
  void advance(bool failure);
  void finish();

private:
  void print(bool final);
  std::string name_;
  int total_;
  bool quiet_;
  bool tty_;
  int done_     = 0;
  int failures_ = 0;
  std::chrono::steady_clock::time_point start_;
  std::chrono::steady_clock::time_point last_print_;
};

} // namespace pipesim
