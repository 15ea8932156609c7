// The platform preset table: one entry per random platform family of the papers, each citing its source.
#include "platforms/generator_presets.hpp"

namespace pipesim {

namespace {

// bbr10 §7.1 and §7.2: "the input/output network card capacity (B_u^i, B_u^o) to double values chosen in
// [1, 10], like the links bandwidths (b_{u,v})"; §7.2: "The failure probabilities have been randomly generated
// between 0.05 and 0.3". §7.1 (period only) gives no failure range: §7.2's is used for both.
PlatformGeneratorSpec bbr10_spec(Range speed)
{
  return PlatformGeneratorSpec{.platform_class      = PlatformClass::fully_heterogeneous,
                               .speed               = speed,
                               .bandwidth           = Range::uniform(1, 10),
                               .latency             = Range::fixed(0),
                               .failure_probability = Range::uniform(0.05, 0.3),
                               .nic_in              = Range::uniform(1, 10),
                               .nic_out             = Range::uniform(1, 10),
                               .nic_bounded_in      = true,
                               .nic_bounded_out     = true};
}

// br07 (br07 §5: "we fix b = 10 for the link bandwidths") and hedpm (hedpm §5.1: one bandwidth 10; §5.2 reuses
// br07's test): Communication Homogeneous, b = 10, no latency; only the speeds differ.
PlatformGeneratorSpec communication_homogeneous_spec(Range speed)
{
  return PlatformGeneratorSpec{.platform_class = PlatformClass::communication_homogeneous,
                               .speed          = speed,
                               .bandwidth      = Range::fixed(10),
                               .latency        = Range::fixed(0)};
}

std::vector<PlatformPreset> make_presets()
{
  return {
      {"br07",
       "seed 000 §5: Communication Homogeneous platforms; \"we fix b = 10 for the link bandwidths. Moreover, the "
       "speed of each processor is randomly chosen as an integer between 1 and 20\" (p = 10 and 100)",
       communication_homogeneous_spec(Range::uniform(1, 20, true))},
      {"bbr10",
       "seed 004 §7.1: FullHet platforms; \"the speed (s_u) has been set to double values belonging to interval "
       "[1, 20], and the input/output network card capacity (B_u^i, B_u^o) to double values chosen in [1, 10], like "
       "the links bandwidths\"; failure probabilities from §7.2, [0.05, 0.3] (p = 10, 30, 100)",
       bbr10_spec(Range::uniform(1, 20))},
      {"bbr10-fast",
       "seed 004 §7.2: \"Processor speeds have been set to double values randomly chosen in interval [10, 20], the "
       "input/output network card capacity and the links bandwidths to double values chosen in [1, 10]. The failure "
       "probabilities have been randomly generated between 0.05 and 0.3\" (p = 16, 32, 64)",
       bbr10_spec(Range::uniform(10, 20))},
      {"hedpm",
       "seed 002 §5.1: \"the processor speeds and the stage loads are generated randomly with statistic parameters "
       "mu = 10 and sigma = 5\"; normal speeds clipped positive, one bandwidth 10 (the paper's B of §4.1, equal to "
       "the mean speed), no set-up time (p = 4)",
       communication_homogeneous_spec(Range::normal(10, 5))},
      {"hedpm-5.2",
       "seed 002 §5.2: \"we present a comparison with BSC algorithm using the test described in [8]\" ([8] is seed "
       "000: Communication Homogeneous, b = 10, integer speeds in [1, 20]); \"the number of processors (P) from 10 to "
       "100; the number of stages (N) is 30\"",
       communication_homogeneous_spec(Range::uniform(1, 20, true))},
  };
}

} // namespace

const std::vector<PlatformPreset>& platform_presets()
{
  static const std::vector<PlatformPreset> presets = make_presets();
  return presets;
}

const PlatformPreset* find_platform_preset(std::string_view name)
{
  for (const auto& preset : platform_presets())
    if (preset.name == name) return &preset;
  return nullptr;
}

std::string platform_preset_names()
{
  std::string names;
  for (const auto& preset : platform_presets())
    names += (names.empty() ? "" : ", ") + std::string(preset.name);
  return names;
}

} // namespace pipesim
