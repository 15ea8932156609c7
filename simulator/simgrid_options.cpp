// SimGrid arguments tried in a child process before a run.
#include "simulator/simgrid_options.hpp"

#include "base/subprocess.hpp"

#include <array>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <map>
#include <simgrid/s4u.hpp>
#include <string_view>
#include <sys/mman.h>
#include <unistd.h>
#include <utility>
#include <vector>

namespace sg4 = simgrid::s4u;

namespace pipesim {

namespace {

struct NumericOption {
  std::string_view name;
  bool positive; // > 0 rather than >= 0
};

constexpr std::array<NumericOption, 8> numeric_options{{{"surf/precision", true},
                                                        {"maxmin/precision", true},
                                                        {"network/TCP-gamma", false},
                                                        {"network/latency-factor", false},
                                                        {"network/bandwidth-factor", false},
                                                        {"network/weight-S", false},
                                                        {"contexts/stack-size", false},
                                                        {"contexts/guard-size", false}}};

/// The range check of a numeric option SimGrid does not check itself ("--cfg=name:value"), or nullopt.
std::optional<std::string> numeric_option_error(const std::string& setting)
{
  const std::size_t colon = setting.find(':');
  if (colon == std::string::npos) return std::nullopt;
  const std::string name  = setting.substr(0, colon);
  const std::string value = setting.substr(colon + 1);
  for (const NumericOption& option : numeric_options) {
    if (name != option.name) continue;
    char* end = nullptr;
    double v  = std::strtod(value.c_str(), &end);
    if (end == value.c_str() || *end != '\0') return std::nullopt; // SimGrid's parser says what it expected
    if (std::isfinite(v) && (option.positive ? v > 0 : v >= 0)) return std::nullopt;
    return fmt::format("{}: value '{}': expected a finite number {} (SimGrid takes it unchecked)", name, value,
                       option.positive ? "> 0" : ">= 0");
  }
  return std::nullopt;
}

/// The first line of SimGrid's message: after its "[0.000000] ./src/...: [root/CRITICAL] " prefix when it has one
/// (the message may start on the next line; a backtrace follows it).
std::string simgrid_message(std::string text)
{
  if (auto tag = text.find("/CRITICAL] "); tag != std::string::npos) text = text.substr(tag + 11);
  text.erase(0, text.find_first_not_of(" \n"));
  std::string line = text.substr(0, text.find('\n'));
  if (!line.ends_with(':')) return line;
  // "Possible values:" then one "  - 'Name': description" line per value: the names
  std::vector<std::string> names;
  for (std::size_t pos = text.find("\n  - '"); pos != std::string::npos; pos = text.find("\n  - '", pos + 1)) {
    std::size_t start = pos + 6;
    names.push_back(text.substr(start, text.find('\'', start) - start));
  }
  return fmt::format("{} {}", line, fmt::join(names, ", "));
}

/// What the child wrote on its standard output and error, read back from `fd` (a memory file).
std::string captured(int fd)
{
  std::string text;
  std::array<char, 4096> buffer{};
  ::lseek(fd, 0, SEEK_SET);
  for (ssize_t n; (n = ::read(fd, buffer.data(), buffer.size())) > 0;)
    text.append(buffer.data(), static_cast<std::size_t>(n));
  return text;
}

/// In the child: a SimGrid engine started with `arg` alone, a one-host platform, an empty run.
std::string try_argument(const std::string& arg, int fd)
{
  ::dup2(fd, 1);
  ::dup2(fd, 2);
  std::vector<std::string> words{"pipesim", arg};
  std::vector<char*> argv{words[0].data(), words[1].data(), nullptr};
  int argc = 2;
  sg4::Engine engine(&argc, argv.data());
  if (argc != 1) return "SimGrid did not take it as an option";
  sg4::Engine::set_config("tracing:no"); // parsed and checked: no trace file of the empty run
  sg4::create_full_zone("check")->create_host("h", 1)->seal();
  engine.run();
  return "";
}

std::optional<std::string> try_in_child(const std::string& arg)
{
  const bool cfg = arg.starts_with("--cfg=");
  if (!cfg && !arg.starts_with("--log=")) return "expected a SimGrid argument starting with --cfg= or --log=";
  if (cfg)
    if (auto error = numeric_option_error(arg.substr(6))) return error;
  int fd = ::memfd_create("pipesim-simgrid-argument", 0);
  if (fd < 0) return std::nullopt; // cannot capture: the run itself will show what SimGrid says
  PoolOptions options;
  options.timeout    = 20;
  JobOutcome outcome = std::move(run_pool(1, options, [&](int) { return try_argument(arg, fd); }).front());
  std::optional<std::string> error;
  if (outcome.status == JobStatus::finished && !outcome.text.empty()) error = outcome.text;
  if (outcome.status == JobStatus::bad_input || outcome.status == JobStatus::failed)
    error = simgrid_message(outcome.text);
  if (outcome.status == JobStatus::crashed) error = simgrid_message(captured(fd));
  if (outcome.status == JobStatus::timed_out) error = "it did not finish an empty run in 20 s";
  ::close(fd);
  if (error && error->empty()) error = outcome.text;
  if (error) error = "SimGrid: " + *error;
  return error;
}

} // namespace

std::optional<std::string> simgrid_argument_error(const std::string& arg)
{
  // a campaign parses its base scenario's simulation.simgrid once per run: each argument is tried once per process
  static std::map<std::string, std::optional<std::string>> known;
  auto [it, added] = known.try_emplace(arg);
  if (added) it->second = try_in_child(arg);
  return it->second;
}

} // namespace pipesim
