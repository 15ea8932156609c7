// Where each dotted key of a scenario, campaign run or edit list came from, so that an InputError about a key gets the
// file and line of that key even when the code that throws it does not know files (issue 31).
#pragma once

#include "base/input_error.hpp"
#include "base/yaml_node.hpp"

#include <optional>
#include <string>
#include <vector>

namespace pipesim {

/// Layers of sources, each covering the keys under a prefix ("" covers every key): a YAML node of its file (the keys
/// under the prefix are read in it, its marks give the lines) or a command-line option that set them. A key's place
/// is found in the layer with the longest prefix of it (among equal prefixes, the last added), then in that layer's
/// node along the key's path as far as the document goes: "simulation.failures.election" not written in the file is
/// at the line of `simulation.failures`, or of `simulation`, unless another layer covers a key under it (a swept
/// `simulation.failures.election`: the section was made there, and that layer's place is the key's). The layers hold
/// YAML nodes by reference (yaml-cpp's shared nodes): a copy is cheap, and nothing is walked until an error asks.
class SourceMap {
public:
  /// The keys under `prefix` were read from `node`.
  void add(std::string prefix, const YamlNode& node);
  /// The keys under `prefix` are in `file`, without lines (a SimGrid XML file).
  void add_file(std::string prefix, std::string file);
  /// The keys under `prefix` were set by the command-line option `option` (given as `value`, when it takes one).
  void add_option(std::string prefix, std::string option, std::optional<std::string> value = std::nullopt);
  /// An error about a key under `prefix` is shown as one about `target` (its place, key and value), the key it was
  /// about leading its message ("key 'mapper': value 'x': its mapping[1]: ..."): a mapper stands in for the mapping it
  /// returns.
  void add_stand_in(std::string prefix, std::string target);

  bool empty() const { return layers_.empty(); }

  /// Gives `error` the place of its key when it has a key and no place. A key found as such (not only a prefix of it)
  /// also gives its value (as written; a collection in flow style, shortened) to an error without one.
  void attach(InputError& error) const;
  /// Gives `error` the place of its key when it is located in `file`: for an error found in a document made from
  /// these sources (a campaign run's scenario, emitted as text and parsed again), the place in the files its key came
  /// from (an error without a key: the place of the document). Errors located elsewhere (another file the document
  /// names) are left as they are.
  void relocate(InputError& error, const std::string& file) const;

private:
  struct Layer {
    std::string prefix;
    std::optional<YamlNode> node;     // a YAML source, or
    std::string file;                 // a file without lines, or
    std::string option;               // a command-line option (with its value), or
    std::optional<std::string> value; //
    std::string target;               // the key that stands in for the keys under the prefix
  };
  /// Where a key is: its place, the key as shown (the option for a command-line value) and its value when known.
  struct Place {
    std::string file;
    int line = 0;
    std::string key;
    std::optional<std::string> value;
  };
  const Layer* layer_of(const std::string& key, bool stand_ins) const;
  /// The last layer (not a stand-in) of a key under `key`.
  const Layer* layer_under(const std::string& key) const;
  std::optional<Place> find(const std::string& key, bool stand_ins) const;
  void place(InputError& error) const;

  std::vector<Layer> layers_;
};

/// Runs `f`; an InputError that leaves it gets the place of its key in `sources` (SourceMap::attach). The one wrapper
/// of the entry points (map, simulate, fit, whatif, pareto, campaign rows, ...) around what they run.
template <class F>
decltype(auto) with_sources(const SourceMap& sources, F&& f)
{
  try {
    return f();
  } catch (InputError& e) {
    sources.attach(e);
    throw;
  }
}

} // namespace pipesim
