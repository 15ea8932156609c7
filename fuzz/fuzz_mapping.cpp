// libFuzzer harness: explicit mappings (scenarios/mapping_spec.hpp), read then resolved against a 4-stage pipeline
// and a platform of processors P1..P6 (P_in "in", P_out "out"), then evaluated as `pipesim map` does (one-port and
// multi-port, with the event graphs of dealt replicas). The input is a scenario (its `mapping:` is read) or the
// mapping alone; seeded with scenarios/examples and fuzz/seeds/mapping.
#include "base/yaml_node.hpp"
#include "fuzz/fuzz_common.hpp"
#include "model/analysis.hpp"
#include "scenarios/mapping_spec.hpp"

namespace {

pipesim::Platform fixed_platform()
{
  std::vector<pipesim::Processor> processors;
  for (int u = 1; u <= 6; ++u)
    processors.push_back({"P" + std::to_string(u), double(u), 0.01 * u});
  return pipesim::Platform(processors, "in", "out", 10.0, 0.1);
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
  using namespace pipesim;
  static const Platform platform = fixed_platform();
  static const Pipeline pipeline{{1, 2, 3, 4}, {1, 1, 1, 1, 1}};
  return fuzz::guarded(fuzz::label, [&] {
    YamlNode root    = load_yaml_text(fuzz::text_of(data, size), fuzz::label);
    YamlNode node    = root.has("mapping") ? root.at("mapping") : root;
    MappingSpec spec = parse_mapping_spec(node);
    check_mapping_stages(spec, pipeline.n());
    Mapping mapping = resolve_mapping(spec, pipeline, platform);
    SourceMap sources; // the evaluators' refusals are keyed ("mapping[1].replicas[0]"): located as `pipesim map` does
    sources.add("mapping", node);
    with_sources(sources, [&] { (void)analyze_oneport(pipeline, platform, mapping); });
    fuzz::guarded(fuzz::label, [&] { // the multi-port evaluation also runs after a one-port refusal
      with_sources(sources, [&] { (void)analyze_multiport(pipeline, platform, mapping, 2); });
    });
  });
}
