// The places of dotted keys (source_map.hpp).
#include "base/source_map.hpp"

#include <fmt/format.h>

namespace pipesim {

namespace {

/// A key's path: map keys and list indices ("mapping[1].replicas[0]" -> mapping, 1, replicas, 0).
struct Step {
  std::string name;
  std::size_t index = 0;
  bool is_index     = false;
};

std::vector<Step> steps_of(const std::string& path)
{
  std::vector<Step> steps;
  std::size_t i = 0;
  while (i < path.size()) {
    if (path[i] == '.') {
      ++i;
      continue;
    }
    if (path[i] == '[') {
      std::size_t close = path.find(']', i);
      if (close == std::string::npos) break;
      Step s;
      s.is_index = true;
      try {
        s.index = std::stoul(path.substr(i + 1, close - i - 1));
      } catch (const std::logic_error&) {
        break; // not an index: the path stops here
      }
      steps.push_back(s);
      i = close + 1;
      continue;
    }
    std::size_t end = path.find_first_of(".[", i);
    if (end == std::string::npos) end = path.size();
    steps.push_back(Step{path.substr(i, end - i)});
    i = end;
  }
  return steps;
}

bool covers(const std::string& prefix, const std::string& key)
{
  if (prefix.empty() || key == prefix) return true;
  return key.size() > prefix.size() && key.compare(0, prefix.size(), prefix) == 0 &&
         (key[prefix.size()] == '.' || key[prefix.size()] == '[');
}

int line_of(const YAML::Node& node)
{
  if (!node || node.Mark().is_null() || node.Mark().line < 0) return 0;
  return node.Mark().line + 1;
}

/// Where `path` leads from `root`: the line of the deepest node on it (a key without a line of its own, a null value,
/// has the line of its key), and its scalar text when the whole path was found.
struct Found {
  int line   = 0;
  bool whole = false; // the document writes the whole path
  std::optional<std::string> scalar;
};

Found follow(const YamlNode& root, const std::string& path)
{
  Found found;
  found.line      = root.line();
  YAML::Node node = root.raw();
  bool whole      = true;
  for (const Step& step : steps_of(path)) {
    YAML::Node next;
    int key_line = 0;
    bool got     = false;
    if (!step.is_index && node.IsMap()) {
      for (const auto& kv : node)
        if (kv.first.IsScalar() && kv.first.Scalar() == step.name) {
          next.reset(kv.second);
          key_line = line_of(kv.first);
          got      = true;
          break;
        }
    } else if (step.is_index && node.IsSequence() && step.index < node.size()) {
      next.reset(node[step.index]);
      got = true;
    }
    if (!got) {
      whole = false;
      break;
    }
    node.reset(next);
    if (int line = line_of(node); line > 0)
      found.line = line;
    else if (key_line > 0)
      found.line = key_line;
  }
  found.whole = whole;
  if (whole && !node.IsNull()) found.scalar = YamlNode(node, root.file(), "").text(); // a collection: its flow text
  return found;
}

} // namespace

void SourceMap::add(std::string prefix, const YamlNode& node)
{
  Layer layer;
  layer.prefix = std::move(prefix);
  layer.node   = node;
  layers_.push_back(std::move(layer));
}

void SourceMap::add_file(std::string prefix, std::string file)
{
  Layer layer;
  layer.prefix = std::move(prefix);
  layer.file   = std::move(file);
  layers_.push_back(std::move(layer));
}

void SourceMap::add_option(std::string prefix, std::string option, std::optional<std::string> value)
{
  Layer layer;
  layer.prefix = std::move(prefix);
  layer.option = std::move(option);
  layer.value  = std::move(value);
  layers_.push_back(std::move(layer));
}

void SourceMap::add_stand_in(std::string prefix, std::string target)
{
  Layer layer;
  layer.prefix = std::move(prefix);
  layer.target = std::move(target);
  layers_.push_back(std::move(layer));
}

const SourceMap::Layer* SourceMap::layer_of(const std::string& key, bool stand_ins) const
{
  const Layer* best = nullptr;
  for (const Layer& layer : layers_)
    if ((stand_ins || layer.target.empty()) && covers(layer.prefix, key) &&
        (best == nullptr || layer.prefix.size() >= best->prefix.size()))
      best = &layer;
  return best;
}

const SourceMap::Layer* SourceMap::layer_under(const std::string& key) const
{
  const Layer* last = nullptr;
  for (const Layer& layer : layers_)
    if (layer.target.empty() && layer.prefix != key && covers(key, layer.prefix)) last = &layer;
  return last;
}

std::optional<SourceMap::Place> SourceMap::find(const std::string& key, bool stand_ins) const
{
  const Layer* layer = layer_of(key, stand_ins);
  if (layer == nullptr) return std::nullopt;
  if (!layer->target.empty()) return find(layer->target, false);
  if (!layer->option.empty()) return Place{std::string(command_line_place), 0, layer->option, layer->value};
  if (!layer->node) return Place{layer->file, 0, key, std::nullopt};
  Found found = follow(*layer->node, key.substr(std::min(layer->prefix.size(), key.size())));
  // A section its source does not write (`simulation.failures` of a base without it) was made by the source of a key
  // under it (a swept `simulation.failures.model`, an option): that source's place says more than a parent's line.
  if (const Layer* under = found.whole ? nullptr : layer_under(key)) {
    if (!under->option.empty()) return Place{std::string(command_line_place), 0, under->option, under->value};
    if (!under->node) return Place{under->file, 0, key, std::nullopt};
    return Place{under->node->file(), under->node->line(), key, std::nullopt};
  }
  return Place{layer->node->file(), found.line, key, found.scalar};
}

void SourceMap::place(InputError& error) const
{
  InputError::Fields f = error.fields();
  const Layer* layer   = layer_of(f.key, true);
  auto where           = find(f.key, true);
  if (!layer || !where) return;
  if (!layer->target.empty()) { // "key 'mapper': value 'x': its mapping[1]: value '...': what"
    std::string about = fmt::format("its {}: ", f.key);
    if (f.value) about += fmt::format("value '{}': ", *f.value);
    f.message = about + f.message;
    f.value   = where->value;
  } else if (!f.value || !layer->option.empty()) {
    if (where->value) f.value = where->value; // a command-line option shows the value it was given
  }
  f.file = where->file;
  f.line = where->line;
  f.key  = where->key.empty() ? f.key : where->key;
  error.reset(std::move(f));
}

void SourceMap::attach(InputError& error) const
{
  if (!error.located() && !error.key().empty()) place(error);
}

void SourceMap::relocate(InputError& error, const std::string& file) const
{
  if (error.file() == file) place(error);
}

} // namespace pipesim
