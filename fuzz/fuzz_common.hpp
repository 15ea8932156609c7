// Shared by the libFuzzer harnesses (scripts/fuzz.sh, docs/library.md "Fuzzing"): an input passes when it loads or
// is rejected by an InputError located in the input's file; anything else (another exception, a crash, a sanitizer
// report, a hang, an InputError without a place or located elsewhere) is a finding. A harness that evaluates what its
// loader accepted (the model's checks, which throw keyed errors: docs/scenarios.md "Errors") attaches the places as an
// entry point does, with a SourceMap of its input (fuzz::sources_of), so no refusal is exempt.
#pragma once

#include "base/input_error.hpp"
#include "base/source_map.hpp"

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

/// Runs `load`; an InputError is a rejection, checked to be located (a file and, in a YAML input, a line) and, unless
/// `other_files` (a campaign's base scenario file), located in `file`; anything else escapes to libFuzzer.
template <class Load>
int guarded(const std::string& file, Load&& load, bool other_files = false)
{
  try {
    load();
  } catch (const InputError& e) {
    const bool yaml = e.file() == label;
    if (!e.located() || (!other_files && e.file() != file) || (yaml && e.line() <= 0 && !e.key().empty())) {
      std::fprintf(stderr, "InputError not located in '%s' (file '%s', line %d, key '%s'): %s\n", file.c_str(),
                   e.file().c_str(), e.line(), e.key().c_str(), e.what());
      std::abort();
    }
  }
  return 0;
}

} // namespace pipesim::fuzz
