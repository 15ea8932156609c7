// Reads explicit and generated platforms from a scenario's `platform:` mapping.
#include "platforms/platform_yaml.hpp"

#include "base/input_error.hpp"
#include "base/yaml_range.hpp"
#include "platforms/generate.hpp"
#include "platforms/generator_presets.hpp"

#include <fmt/format.h>
#include <map>
#include <optional>
#include <utility>

namespace pipesim {

namespace {

constexpr int max_generated_processors = 10000; // two dense (p+2)^2 matrices: ~1.6 GB at this size

struct IoNames {
  std::string in  = "in";
  std::string out = "out";
};

std::string parse_host_name(const YamlNode& node)
{
  std::string name = node.as_string();
  if (name.empty()) node.fail("expected a non-empty host name");
  return name;
}

IoNames parse_io(const YamlNode& platform_node)
{
  IoNames io;
  if (auto node = platform_node.find("io")) {
    node->require_map();
    node->allow_only({"in", "out"});
    if (auto in = node->find("in")) io.in = parse_host_name(*in);
    if (auto out = node->find("out")) io.out = parse_host_name(*out);
  }
  return io;
}

std::vector<Processor> parse_processors(const YamlNode& list, const IoNames& io)
{
  auto items = list.items();
  if (items.empty()) list.fail("expected a non-empty list of processors");
  std::vector<Processor> processors;
  std::map<std::string, int> first_line;
  for (const auto& item : items) {
    item.require_map();
    item.allow_only({"name", "speed", "failure_probability", "nic_in", "nic_out", "mtbf"});
    Processor proc;
    YamlNode name = item.at("name");
    proc.name     = parse_host_name(name);
    if (auto seen = first_line.find(proc.name); seen != first_line.end())
      name.fail(fmt::format("duplicate processor name (first defined at line {})", seen->second));
    if (proc.name == io.in || proc.name == io.out)
      name.fail("a processor cannot have the name of an io host (platform.io: P_in/P_out)");
    first_line.emplace(proc.name, name.line());
    proc.speed = item.at("speed").as_positive();
    if (auto f = item.find("failure_probability")) proc.failure_probability = f->as_probability();
    if (auto b = item.find("nic_in")) proc.nic_in = b->as_positive();
    if (auto b = item.find("nic_out")) proc.nic_out = b->as_positive();
    if (auto m = item.find("mtbf")) proc.mtbf = m->as_positive();
    processors.push_back(std::move(proc));
  }
  return processors;
}

std::string host_list(const Platform& platform)
{
  std::string list;
  for (const auto& proc : platform.processors())
    list += proc.name + ", ";
  list += platform.in_name();
  if (!platform.io_same_host()) list += ", " + platform.out_name();
  return list;
}

/// The node indices of a host: one processor, P_in, P_out, or both when P_in and P_out are one host.
std::vector<int> resolve_host(const YamlNode& node, const Platform& platform)
{
  std::string name = node.as_string();
  if (auto u = platform.find(name)) return {*u};
  std::vector<int> nodes;
  if (name == platform.in_name()) nodes.push_back(platform.in());
  if (name == platform.out_name()) nodes.push_back(platform.out());
  if (nodes.empty()) node.fail(fmt::format("unknown host (expected one of: {})", host_list(platform)));
  return nodes;
}

/// One of the two per-pair matrices, b (bandwidth) or c (latency), read from `bandwidth:` or `latency:`.
class LinkMatrixReader {
public:
  LinkMatrixReader(Platform& platform, bool bandwidth) : platform_(platform), bandwidth_(bandwidth) {}

  void read(const YamlNode& node)
  {
    if (node.is_scalar()) {
      fill(value(node));
      return;
    }
    if (!node.is_map())
      node.fail(fmt::format("expected a number or {{default: X, links: [{{from: A, to: B, {}: Y}}]}}", key()));
    node.allow_only({"default", "links"});
    if (bandwidth_)
      fill(value(node.at("default")));
    else if (auto d = node.find("default"))
      fill(value(*d));
    if (auto links = node.find("links"))
      for (const auto& link : links->items())
        read_link(link);
  }

private:
  const char* key() const { return bandwidth_ ? "bandwidth" : "latency"; }
  double value(const YamlNode& node) const { return bandwidth_ ? node.as_positive() : node.as_nonnegative(); }

  void set(int u, int v, double x)
  {
    if (bandwidth_)
      platform_.set_link(u, v, x, platform_.latency(u, v));
    else
      platform_.set_link(u, v, platform_.bandwidth(u, v), x);
  }

  void fill(double x)
  {
    for (int u = 0; u < platform_.nodes(); ++u)
      for (int v = 0; v < platform_.nodes(); ++v)
        if (u != v) set(u, v, x);
  }

  void read_link(const YamlNode& link)
  {
    link.require_map();
    link.allow_only({"from", "to", key(), "directed"});
    YamlNode from = link.at("from");
    YamlNode to   = link.at("to");
    auto sources  = resolve_host(from, platform_);
    auto targets  = resolve_host(to, platform_);
    if (from.as_string() == to.as_string()) to.fail("a link joins two different hosts (same as 'from')");
    double x      = value(link.at(key()));
    bool directed = false;
    if (auto d = link.find("directed")) directed = d->as_bool();
    for (int u : sources)
      for (int v : targets) {
        assign(link, u, v, x);
        if (!directed) assign(link, v, u, x);
      }
  }

  void assign(const YamlNode& link, int u, int v, double x)
  {
    auto [it, fresh] = set_at_.emplace(std::make_pair(u, v), link.line());
    if (!fresh)
      link.fail_key(fmt::format("the {} of {} -> {} is already set by the link at line {}", key(),
                                platform_.node_name(u), platform_.node_name(v), it->second));
    set(u, v, x);
  }

  Platform& platform_;
  bool bandwidth_;
  std::map<std::pair<int, int>, int> set_at_; // ordered pair -> line of the override
};

Platform parse_explicit(const YamlNode& node, const IoNames& io)
{
  Platform platform(parse_processors(node.at("processors"), io), io.in, io.out);
  LinkMatrixReader(platform, true).read(node.at("bandwidth"));
  if (auto latency = node.find("latency")) LinkMatrixReader(platform, false).read(*latency);
  if (platform.io_same_host()) { // P_in -> P_out is local to one host, as platform_from_engine reads it
    platform.set_link(platform.in(), platform.out(), unbounded, 0.0);
    platform.set_link(platform.out(), platform.in(), unbounded, 0.0);
  }
  return platform;
}

/// A generator key: required when no preset gives it a value.
std::optional<YamlNode> generator_key(const YamlNode& gen, const char* key, bool required)
{
  return required ? std::optional<YamlNode>(gen.at(key)) : gen.find(key);
}

/// The preset named by `preset:`, or the plain defaults (every range then has to be given).
PlatformGeneratorSpec parse_preset(const YamlNode& node)
{
  std::string name = node.as_string();
  if (const PlatformPreset* preset = find_platform_preset(name)) return preset->spec;
  node.fail(fmt::format("unknown platform preset (expected one of: {})", platform_preset_names()));
}

/// Class and ranges; each key given overrides the preset's value.
void parse_generator_ranges(const YamlNode& gen, bool preset, PlatformGeneratorSpec& spec)
{
  if (auto cls = generator_key(gen, "class", !preset)) {
    auto platform_class = platform_class_from_string(cls->as_string());
    if (!platform_class) cls->fail("expected fully-homogeneous, communication-homogeneous or fully-heterogeneous");
    spec.platform_class = *platform_class;
  }
  if (auto speed = generator_key(gen, "speed", !preset)) spec.speed = parse_range(*speed, true);
  if (auto bandwidth = generator_key(gen, "bandwidth", !preset)) spec.bandwidth = parse_range(*bandwidth, true);
  if (auto latency = gen.find("latency")) spec.latency = parse_range(*latency, false);
  if (auto f = gen.find("failure_probability")) {
    spec.failure_probability = parse_range(*f, false);
    if (spec.failure_probability.is_normal())
      f->fail("expected a uniform range in [0, 1) (a normal range is unbounded)");
    if (spec.failure_probability.hi >= 1) f->fail("expected failure probabilities in [0, 1)");
  }
  if (auto b = gen.find("nic_in")) {
    spec.nic_in         = parse_range(*b, true);
    spec.nic_bounded_in = true;
  }
  if (auto b = gen.find("nic_out")) {
    spec.nic_out         = parse_range(*b, true);
    spec.nic_bounded_out = true;
  }
}

PlatformGeneratorSpec parse_generator(const YamlNode& gen, const IoNames& io, const YamlNode& platform_node)
{
  gen.require_map();
  gen.allow_only(
      {"preset", "class", "p", "speed", "bandwidth", "latency", "failure_probability", "nic_in", "nic_out", "seed"});
  auto preset                = gen.find("preset");
  PlatformGeneratorSpec spec = preset ? parse_preset(*preset) : PlatformGeneratorSpec{};
  parse_generator_ranges(gen, preset.has_value(), spec);
  YamlNode p = gen.at("p");
  spec.p     = p.as_int_at_least(1);
  if (spec.p > max_generated_processors)
    p.fail(fmt::format("expected at most {} processors", max_generated_processors));
  YamlNode seed = gen.at("seed");
  long long s   = seed.as_integer();
  if (s < 0) seed.fail("expected an integer >= 0");
  spec.seed     = static_cast<std::uint64_t>(s);
  spec.in_name  = io.in;
  spec.out_name = io.out;
  for (int u = 1; u <= spec.p; ++u)
    if (std::string name = fmt::format("P{}", u); name == io.in || name == io.out)
      platform_node.at("io").fail(
          fmt::format("io host '{}' clashes with a generated processor (P1..P{})", name, spec.p));
  return spec;
}

} // namespace

Platform parse_platform_yaml(const YamlNode& platform_node)
{
  platform_node.require_map();
  platform_node.allow_only({"processors", "bandwidth", "latency", "io", "generate", "hosts", "edits", "profiles"});
  IoNames io         = parse_io(platform_node);
  bool explicit_list = platform_node.has("processors");
  if (auto gen = platform_node.find("generate")) {
    if (explicit_list)
      platform_node.at("processors").fail_key("give either 'processors' (an explicit list) or 'generate', not both");
    for (const char* key : {"bandwidth", "latency"})
      if (auto misplaced = platform_node.find(key))
        misplaced->fail_key(fmt::format("with 'generate', give the {} range inside 'generate'", key));
    return generate_platform(parse_generator(*gen, io, platform_node));
  }
  if (!explicit_list)
    platform_node.fail_key("expected 'processors' (an explicit list) or 'generate' (a random platform), or 'file'");
  return parse_explicit(platform_node, io);
}

} // namespace pipesim
