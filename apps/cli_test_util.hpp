// Shared by the tests that run the built `pipesim` (cli_test.cpp, golden_test.cpp, determinism_test.cpp).
#pragma once

#include <array>
#include <cstdio>
#include <string>
#include <sys/wait.h>
#include <utility>

namespace pipesim::test {

/// A shell command's exit code (-1 when it did not exit) and standard output.
inline std::pair<int, std::string> shell_output(const std::string& command)
{
  std::string out;
  FILE* pipe = popen(command.c_str(), "r");
  std::array<char, 4096> buf{};
  while (std::size_t got = fread(buf.data(), 1, buf.size(), pipe))
    out.append(buf.data(), got);
  int status = pclose(pipe);
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, out};
}

} // namespace pipesim::test
