// libFuzzer harness: YAML platforms (platforms/platform_yaml.hpp parse_platform_yaml), then their host selection and
// edits (platforms/platform_edits.hpp). The input is a scenario (its `platform:` is read) or a platform mapping;
// seeded with scenarios/examples.
#include "base/yaml_node.hpp"
#include "fuzz/fuzz_common.hpp"
#include "platforms/platform_edits.hpp"
#include "platforms/platform_yaml.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
  using namespace pipesim;
  return fuzz::guarded(fuzz::label, [&] {
    YamlNode root = load_yaml_text(fuzz::text_of(data, size), fuzz::label);
    YamlNode node = root.has("platform") ? root.at("platform") : root;
    if (node.has("file")) return; // a SimGrid XML platform: fuzz_xml
    Platform platform = parse_platform_yaml(node);
    PlatformOptions options;
    if (auto hosts = node.find("hosts")) options.hosts = parse_host_pattern(*hosts);
    if (auto edits = node.find("edits")) options.edits = parse_platform_edits(*edits);
    apply_platform_options(platform, options);
  });
}
