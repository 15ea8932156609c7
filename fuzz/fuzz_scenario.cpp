// libFuzzer harness: scenario files (scenarios/scenario.hpp parse_scenario), seeded with scenarios/examples.
#include "fuzz/fuzz_common.hpp"
#include "scenarios/scenario.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
  using namespace pipesim;
  return fuzz::guarded(fuzz::label, [&] {
    parse_scenario(fuzz::text_of(data, size), fuzz::label, PIPESIM_SOURCE_DIR "/scenarios/examples");
  });
}
