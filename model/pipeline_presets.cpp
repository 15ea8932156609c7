// The pipeline preset table: one entry per random application family of the papers, each citing its source.
#include "model/pipeline_presets.hpp"

namespace pipesim {

namespace {

// br07 §5 says "as an integer" for the speeds only; w and delta are "randomly chosen between a and b" (and
// Experiment 4 draws w in [0.01, 10]), so they are uniform reals here.
std::vector<PipelinePreset> make_presets()
{
  return {
      {"br07-exp1",
       "seed 000 §5.1: \"we fix delta_i = 10 for i = 0..n. The computation time required by each stage is randomly "
       "chosen between 1 and 20\"",
       Range::uniform(1, 20), Range::fixed(10)},
      {"br07-exp2",
       "seed 000 §5.2: \"the application communications are heterogeneous, chosen randomly between 1 and 100 [...] "
       "the computation time required by each stage is randomly chosen between 1 and 20\"",
       Range::uniform(1, 20), Range::uniform(1, 100)},
      {"br07-exp3",
       "seed 000 §5.3: \"We choose the communication time between 1 and 20, while the computation time of each "
       "application is chosen between 10 and 1000\"",
       Range::uniform(10, 1000), Range::uniform(1, 20)},
      {"br07-exp4",
       "seed 000 §5.4: \"The communication time is still chosen between 1 and 20, but the computation time is now "
       "chosen between 0.01 and 10\"",
       Range::uniform(0.01, 10), Range::uniform(1, 20)},
      {"bbr10-table1",
       "seed 004 §7.1 (Table 1, Figures 7-8): \"The workload w_i of stages have been set to double values chosen in "
       "interval [1, 20] and input/output data sizes delta_i to integer values in [1, 25]\"",
       Range::uniform(1, 20), Range::uniform(1, 25, true)},
      {"bbr10-tables23",
       "seed 004 §7.2 (Tables 2-3, Figures 9-13): \"The workload of these stages has been set to double values "
       "randomly chosen in interval [1, 100] and input/output data sizes to integer values in [1, 5]\"",
       Range::uniform(1, 100), Range::uniform(1, 5, true)},
      {"hedpm",
       "seed 002 §5.1: \"the processor speeds and the stage loads are generated randomly with statistic parameters "
       "mu = 10 and sigma = 5. Communication load is also randomly obtained but with a weight ten times lower\": "
       "w normal(10, 5), delta normal(1, 0.5), both clipped positive",
       Range::normal(10, 5), Range::normal(1, 0.5)},
      {"hedpm-5.2-hom",
       "seed 002 §5.2 (Fig. 2): \"homogeneous [...] communications\" in \"the test described in [8]\", seed 000 "
       "§5.1: \"we fix delta_i = 10 for i = 0..n. The computation time required by each stage is randomly chosen "
       "between 1 and 20\" (N = 30)",
       Range::uniform(1, 20), Range::fixed(10)},
      {"hedpm-5.2-het",
       "seed 002 §5.2 (Figs. 3-4): \"heterogeneous communications\" in \"the test described in [8]\", seed 000 §5.2: "
       "\"the application communications are heterogeneous, chosen randomly between 1 and 100 [...] randomly chosen "
       "between 1 and 20\" (N = 30)",
       Range::uniform(1, 20), Range::uniform(1, 100)},
  };
}

} // namespace

const std::vector<PipelinePreset>& pipeline_presets()
{
  static const std::vector<PipelinePreset> presets = make_presets();
  return presets;
}

const PipelinePreset* find_pipeline_preset(std::string_view name)
{
  for (const auto& preset : pipeline_presets())
    if (preset.name == name) return &preset;
  return nullptr;
}

std::string pipeline_preset_names()
{
  std::string names;
  for (const auto& preset : pipeline_presets())
    names += (names.empty() ? "" : ", ") + std::string(preset.name);
  return names;
}

} // namespace pipesim
