// libFuzzer harness: campaign files (scenarios/campaign.hpp parse_campaign), seeded with validation/campaigns and
// fuzz/seeds/campaign. Campaigns are capped at 64 runs here (the loader's own cap is 10^7, each run a parsed scenario).
#include "fuzz/fuzz_common.hpp"
#include "scenarios/campaign.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
  using namespace pipesim;
  return fuzz::guarded(
      fuzz::label,
      [&] { parse_campaign(fuzz::text_of(data, size), fuzz::label, PIPESIM_SOURCE_DIR "/validation/campaigns", 64); },
      true); // a refusal of a base scenario's key is at its line in that file
}
