// `pipeline.variability`: laws per stage for the work and message sizes, with their sample files.
#include "scenarios/variability_spec.hpp"

#include "base/input_error.hpp"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <fmt/format.h>
#include <fstream>

namespace pipesim {

namespace {

/// "scenario.yaml:12: key 'pipeline.variability.work'".
std::string key_of(const YamlNode& node)
{
  return fmt::format("{}:{}: key '{}'", node.file(), node.line(), node.path());
}

UnitLaw parse_law(const YamlNode& node, const FileResolver& resolve)
{
  if (node.is_scalar()) {
    Law law = node.as_enum<Law>("law");
    if (law == Law::uniform || law == Law::lognormal || law == Law::gamma)
      node.fail(fmt::format("a {} law needs a cv: write {{law: {}, cv: 0.5}}", law, law));
    if (law == Law::empirical) node.fail("an empirical law needs its samples: write {law: empirical, file: NAME}");
    return law == Law::exponential ? UnitLaw::exponential() : UnitLaw();
  }
  node.require_map();
  node.allow_only({"law", "cv", "file"});
  const YamlNode law_node = node.at("law");
  const Law law           = law_node.as_enum<Law>("law");
  auto cv                 = node.find("cv");
  auto file               = node.find("file");
  if (file && law != Law::empirical) file->fail(fmt::format("only an empirical law reads a file, not {}", law));
  if (law == Law::empirical) {
    if (!file) node.fail_key("an empirical law needs `file:` (one sample per line)");
    if (cv) cv->fail(*UnitLaw::cv_error(law, 0));
    const std::string path = resolve(*file);
    return UnitLaw::empirical(read_samples(path, key_of(*file)), path);
  }
  if (law == Law::deterministic || law == Law::exponential) {
    if (cv) cv->fail(*UnitLaw::cv_error(law, 0));
    return law == Law::exponential ? UnitLaw::exponential() : UnitLaw();
  }
  if (!cv) node.fail_key(fmt::format("a {} law needs a cv (standard deviation / mean)", law));
  const double value = cv->as_double();
  if (auto error = UnitLaw::cv_error(law, value)) cv->fail(*error);
  return UnitLaw::with_cv(law, value);
}

int parse_stage(const YamlNode& stages, const std::string& key, int n)
{
  char* end = nullptr;
  errno     = 0;
  long i    = std::strtol(key.c_str(), &end, 10);
  if (key.empty() || *end != '\0' || errno != 0 || i < 0 || i > n)
    stages.find(key)->fail_key(fmt::format("expected a stage number in 0..{} (0: P_in's message delta_0)", n));
  return static_cast<int>(i);
}

void parse_variability_stages(const YamlNode& node, int n, const FileResolver& resolve, VariabilitySpec& spec)
{
  node.require_map();
  for (const std::string& key : node.keys()) {
    const int i         = parse_stage(node, key, n);
    const YamlNode laws = *node.find(key);
    laws.require_map();
    laws.allow_only({"work", "size"});
    if (auto work = laws.find("work")) {
      if (i == 0) work->fail_key("stage 0 stands for P_in: it has a message size (delta_0), no work");
      spec.work_of[i] = parse_law(*work, resolve);
    }
    if (auto size = laws.find("size")) spec.size_of[i] = parse_law(*size, resolve);
  }
}

} // namespace

std::vector<double> read_samples(const std::string& path, const std::string& key)
{
  std::ifstream in(path);
  if (!in) throw InputError::keyed(key, path, "cannot read the sample file");
  std::vector<double> samples;
  std::string line;
  for (int number = 1; std::getline(in, line); ++number) {
    if (auto hash = line.find('#'); hash != std::string::npos) line.erase(hash);
    const auto first = line.find_first_not_of(" \t\r");
    if (first == std::string::npos) continue;
    const auto last  = line.find_last_not_of(" \t\r");
    std::string text = line.substr(first, last - first + 1);
    char* end        = nullptr;
    double x         = std::strtod(text.c_str(), &end);
    if (*end != '\0' || !std::isfinite(x) || x < 0)
      throw InputError::at(path, number, "", text,
                           fmt::format("expected one number >= 0 per line (samples of {})", key));
    if (static_cast<long long>(samples.size()) == max_empirical_samples)
      throw InputError::in_file(path, number,
                                fmt::format("more than {} samples (samples of {})", max_empirical_samples, key));
    samples.push_back(x);
  }
  if (auto error = UnitLaw::samples_error(samples))
    throw InputError::in_file(path, 0, fmt::format("{} (samples of {})", *error, key));
  return samples;
}

VariabilitySpec parse_variability_spec(const YamlNode& node, int n, const FileResolver& resolve)
{
  node.require_map();
  node.allow_only({"seed", "work", "size", "stages"});
  VariabilitySpec spec;
  if (auto seed = node.find("seed")) {
    long long v = seed->as_integer();
    if (v < 0) seed->fail("expected an integer >= 0");
    spec.seed = static_cast<std::uint64_t>(v);
  }
  if (auto work = node.find("work")) spec.work = parse_law(*work, resolve);
  if (auto size = node.find("size")) spec.size = parse_law(*size, resolve);
  if (auto stages = node.find("stages")) parse_variability_stages(*stages, n, resolve, spec);
  return spec;
}

} // namespace pipesim
