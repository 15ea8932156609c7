// Loads a SimGrid platform XML file in a child process (SimGrid allows one engine per process) and ships its model
// back to the parent.
#include "platforms/simgrid/simgrid_platform.hpp"

#include "base/input_error.hpp"
#include "base/subprocess.hpp"
#include "platforms/platform_json.hpp"
#include "platforms/simgrid/simgrid_profiles.hpp"
#include "platforms/simgrid/xml_precheck.hpp"

#include <cstring>
#include <filesystem>
#include <fmt/format.h>
#include <fstream>
#include <functional>
#include <simgrid/s4u/Engine.hpp>
#include <sstream>
#include <stdexcept>
#include <sys/resource.h>
#include <vector>

namespace sg4 = simgrid::s4u;

namespace pipesim {

namespace {

/// The loader's answer: the platform's JSON without its matrices, a NUL, then b_{u,v} and c_{u,v} as raw doubles in
/// node order (row = source). A 2,562-node platform's matrices are 105 MB as doubles and about 4 times that as JSON
/// text and its parsed tree.
std::string encode_platform(const Platform& platform)
{
  std::string text = platform_to_json(platform, false).dump();
  text.push_back('\0');
  auto n = static_cast<std::size_t>(platform.nodes());
  text.reserve(text.size() + 2 * n * n * sizeof(double));
  auto append = [&](double x) { text.append(reinterpret_cast<const char*>(&x), sizeof x); };
  for (int u = 0; u < platform.nodes(); ++u)
    for (int v = 0; v < platform.nodes(); ++v)
      append(platform.bandwidth(u, v));
  for (int u = 0; u < platform.nodes(); ++u)
    for (int v = 0; v < platform.nodes(); ++v)
      append(platform.latency(u, v));
  return text;
}

Platform decode_platform(const std::string& text)
{
  std::size_t end = text.find('\0');
  if (end == std::string::npos) throw std::runtime_error("platform loader: malformed answer (no separator)");
  Platform platform =
      platform_from_json(nlohmann::json::parse(text.begin(), text.begin() + static_cast<long>(end)), false);
  auto n = static_cast<std::size_t>(platform.nodes());
  if (text.size() - end - 1 != 2 * n * n * sizeof(double))
    throw std::runtime_error("platform loader: malformed answer (matrix size)");
  auto value = [&](std::size_t index) {
    double x = 0;
    std::memcpy(&x, text.data() + end + 1 + index * sizeof(double), sizeof x);
    return x;
  };
  for (std::size_t u = 0; u < n; ++u)
    for (std::size_t v = 0; v < n; ++v)
      if (u != v)
        platform.set_link(static_cast<int>(u), static_cast<int>(v), value(u * n + v), value(n * n + u * n + v));
  return platform;
}

} // namespace

std::string with_xml_platform(const std::string& file, const std::function<std::string(const std::string&)>& job)
{
  std::error_code ec;
  if (!std::filesystem::is_regular_file(file, ec))
    throw InputError::in_file(file, 0, "cannot open the platform file (no such regular file)");
  std::ifstream in(file);
  std::stringstream text;
  text << in.rdbuf();
  precheck_platform_xml(file, text.str()); // what SimGrid would die on without a message naming the line
  auto load = [&](int) {                   // in a child: SimGrid allows one engine per process
    // SimGrid aborts on some bad files (e.g. an unknown routing, a negative speed): no core file for those.
    rlimit no_core{0, 0};
    ::setrlimit(RLIMIT_CORE, &no_core);
    sg4::Engine* engine = start_engine();
    try {
      engine->load_platform(file);
    } catch (const std::exception& e) { // simgrid::ParseError carries "Parse error at <file>:<line>: ..."
      throw InputError::in_file(file, 0, fmt::format("SimGrid cannot load this platform: {}", e.what()));
    }
    return job(text.str());
  };
  JobOutcome loaded = std::move(run_pool(1, {}, load).front());
  if (loaded.status == JobStatus::bad_input) throw loaded.input_error();
  if (!loaded.ok()) // SimGrid died (xbt_die, abort) or threw something else
    throw InputError::in_file(
        file, 0, fmt::format("SimGrid could not load this platform ({}); see SimGrid's message above", loaded.text));
  return std::move(loaded.text);
}

Platform load_xml_platform(const std::string& file, const std::string& in_name, const std::string& out_name,
                           const PlatformOptions& options)
{
  return decode_platform(with_xml_platform(file, [&](const std::string& text) {
    Platform platform = platform_from_engine(file, in_name, out_name, options);
    attach_xml_profiles(platform, file, text); // speed_file, state_file, bandwidth_file, latency_file
    return encode_platform(platform);
  }));
}

} // namespace pipesim
