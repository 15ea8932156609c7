// Shared by the tests that run the built `pipesim` (cli_test.cpp, golden_test.cpp, determinism_test.cpp).
#pragma once

#include "base/external_program.hpp"

#include <iostream>
#include <string>
#include <utility>

namespace pipesim::test {

/// A shell command's exit code (-1 when it did not exit) and standard output; what it writes on stderr goes to the
/// test's stderr. The command is a shell line on purpose (redirections, `cd X &&`): run_program runs /bin/sh on it.
inline std::pair<int, std::string> shell_output(const std::string& command)
{
  ProgramCall call;
  call.argv       = {"/bin/sh", "-c", command};
  ProgramResult r = run_program(call);
  std::cerr << r.err;
  return {r.status == ProgramStatus::exited ? r.exit_code : -1, r.out};
}

} // namespace pipesim::test
