// libFuzzer harness: what-if edit lists (validation/studies/whatif.hpp parse_whatif_variants), each variant's edits
// then applied to a model platform with hosts a-1..a-3, b-1..b-3, P1, P2 (io host "io"). Seeded with
// scenarios/examples/edits and fuzz/seeds/edits.
#include "fuzz/fuzz_common.hpp"
#include "platforms/platform_edits.hpp"
#include "validation/studies/whatif.hpp"

namespace {

pipesim::Platform fixed_platform()
{
  std::vector<pipesim::Processor> processors;
  for (const char* name : {"a-1", "a-2", "a-3", "b-1", "b-2", "b-3", "P1", "P2"})
    processors.push_back({name, 2.0, 0.1});
  return pipesim::Platform(processors, "io", "io", 10.0, 0.1);
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
  using namespace pipesim;
  static const Platform platform = fixed_platform();
  return fuzz::guarded(fuzz::label, [&] {
    for (const WhatIfVariant& variant : parse_whatif_variants(fuzz::text_of(data, size), fuzz::label)) {
      PlatformOptions options;
      options.edits = variant.edits;
      // link edits need an XML platform, a pattern may match nothing: located refusals, then the next variant
      fuzz::guarded(fuzz::label, [&] { apply_platform_options(platform, options); });
    }
  });
}
