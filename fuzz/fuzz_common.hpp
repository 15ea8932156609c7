// Shared by the libFuzzer harnesses (scripts/fuzz.sh, docs/library.md "Fuzzing"): an input passes when it loads or
// is rejected by an InputError whose message names the input's file; anything else (another exception, a crash, a
// sanitizer report, a hang, an InputError that does not name the file) is a finding.
#pragma once

#include "base/input_error.hpp"

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

namespace pipesim::fuzz {

/// The label the harnesses give their input (the file name messages must carry).
inline const std::string label = "fuzz.yaml";

inline std::string text_of(const std::uint8_t* data, std::size_t size)
{
  return std::string(reinterpret_cast<const char*>(data), size);
}

/// Runs `load`; an InputError is a rejection (checked to name `file`), anything else escapes to libFuzzer.
template <class Load>
int guarded(const std::string& file, Load&& load)
{
  try {
    load();
  } catch (const InputError& e) {
    if (std::string(e.what()).find(file) == std::string::npos) {
      std::fprintf(stderr, "InputError without the file name '%s': %s\n", file.c_str(), e.what());
      std::abort();
    }
  }
  return 0;
}

} // namespace pipesim::fuzz
