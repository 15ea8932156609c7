// SimGrid arguments tried in a child process before a run.
#include "simulator/simgrid_options.hpp"

#include "base/input_error.hpp"
#include "base/subprocess.hpp"
#include "platforms/simgrid/simgrid_platform.hpp"

#include <array>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <functional>
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

/// The value of the last `--cfg=NAME:VALUE` of `args`, or nullopt.
std::optional<std::string> last_value(const std::vector<std::string>& args, const std::string& name)
{
  const std::string prefix = "--cfg=" + name + ":";
  std::optional<std::string> value;
  for (const std::string& arg : args)
    if (arg.starts_with(prefix)) value = arg.substr(prefix.size());
  return value;
}

/// SimGrid's booleans (xbt config): yes, on, true, 1.
bool is_yes(const std::optional<std::string>& value)
{
  return value && (*value == "yes" || *value == "on" || *value == "true" || *value == "1");
}

/// The check's own platform when the run gives none: two hosts joined by a link whose bandwidth is set after the
/// platform is built (what the exact mode and the link edits do).
void build_two_hosts()
{
  auto* zone        = sg4::create_full_zone("check");
  sg4::Host* sender = zone->create_host("check-sender", 1e9)->seal();
  sg4::Host* target = zone->create_host("check-receiver", 1e9)->seal();
  sg4::Link* link   = zone->create_link("check-link", 1e8);
  zone->add_route(sender->get_netpoint(), target->get_netpoint(), nullptr, nullptr, {sg4::LinkInRoute(link)}, true);
  zone->seal();
  link->set_bandwidth(2e8);
}

/// The first host and the first other host it has a route to (nullptr when none among the next 100 hosts).
std::pair<sg4::Host*, sg4::Host*> connected_hosts(const sg4::Engine& engine)
{
  std::vector<sg4::Host*> hosts = engine.get_all_hosts();
  if (hosts.empty()) return {nullptr, nullptr};
  for (std::size_t i = 1; i < hosts.size() && i <= 100; ++i) {
    std::vector<sg4::Link*> links;
    double latency = 0;
    try {
      hosts[0]->route_to(hosts[i], links, &latency);
    } catch (const std::exception&) { // no route: SimGrid 3.32 throws on some routings
      continue;
    }
    if (!links.empty()) return {hosts[0], hosts[i]};
  }
  return {hosts[0], nullptr};
}

/// In the child: SimGrid started with `args` (the check's own trace file last), the run's platform (`build`, or two
/// hosts and a link), then a transfer between two connected hosts and a computation on each.
std::string try_arguments(std::vector<std::string> args, const std::string& trace, const std::function<void()>& build,
                          int fd)
{
  ::dup2(fd, 1);
  ::dup2(fd, 2);
  args.push_back("--cfg=tracing/filename:" + trace);
  sg4::Engine* engine = start_engine(args);
  if (build)
    build();
  else
    build_two_hosts();
  auto [sender, target] = connected_hosts(*engine);
  static int payload    = 0;
  if (sender != nullptr)
    sg4::Actor::create("check-send", sender, [target] {
      if (target != nullptr) sg4::Mailbox::by_name("check")->put(&payload, 1000);
      sg4::this_actor::execute(1e3);
    });
  if (target != nullptr)
    sg4::Actor::create("check-receive", target, [] {
      sg4::Mailbox::by_name("check")->get<int>();
      sg4::this_actor::execute(1e3);
    });
  engine->run();
  return "";
}

/// What stops a run with `all`, or nullopt.
std::optional<std::string> arguments_in_child(const std::vector<std::string>& all, const std::function<void()>& build)
{
  if (is_yes(last_value(all, "tracing"))) {
    std::filesystem::path file = last_value(all, "tracing/filename").value_or("simgrid.trace");
    std::filesystem::path dir  = file.has_parent_path() ? file.parent_path() : std::filesystem::path(".");
    std::error_code ec;
    if (!std::filesystem::is_directory(dir, ec) || ::access(dir.c_str(), W_OK) != 0)
      return fmt::format("SimGrid cannot write the trace '{}' ({} is not a writable folder)", file.string(),
                         dir.string());
  }
  int fd = ::memfd_create("pipesim-simgrid-arguments", 0);
  if (fd < 0) return std::nullopt; // cannot capture: the run itself will show what SimGrid says
  std::string trace = (std::filesystem::temp_directory_path() / fmt::format("pipesim-check-{}.trace", ::getpid()));
  PoolOptions options;
  options.timeout = 60; // a large XML platform loads in seconds
  JobOutcome outcome =
      std::move(run_pool(1, options, [&](int) { return try_arguments(all, trace, build, fd); }).front());
  std::error_code ec;
  std::filesystem::remove(trace, ec);
  std::optional<std::string> error;
  if (outcome.status == JobStatus::finished && !outcome.text.empty()) error = "SimGrid says: " + outcome.text;
  if (outcome.status == JobStatus::bad_input || outcome.status == JobStatus::failed)
    error = "SimGrid says: " + simgrid_message(outcome.text);
  if (outcome.status == JobStatus::crashed) {
    std::string text = captured(fd);
    // a message of SimGrid's, or only the death ("simulation process died: signal 11 (Segmentation fault)")
    error = text.find("/CRITICAL] ") != std::string::npos ? "SimGrid says: " + simgrid_message(text) : "";
    if (error->empty()) error = fmt::format("a check run with them died: {}", outcome.text);
  }
  if (outcome.status == JobStatus::timed_out) error = "a check run with them did not end in 60 s";
  ::close(fd);
  return error;
}

} // namespace

std::vector<std::string> simgrid_arguments_needed(const std::vector<std::string>& user)
{
  if (!is_yes(last_value(user, "tracing"))) return {};
  return {"--cfg=tracing/platform:yes"};
}

void check_simgrid_arguments(const std::vector<std::string>& all, const std::vector<std::string>& user,
                             const std::function<void()>& build_platform)
{
  if (user.empty()) return; // pipesim's own arguments run
  std::optional<std::string> error = arguments_in_child(all, build_platform);
  if (!error) return;
  throw InputError::option(fmt::format("{}", fmt::join(user, " ")),
                           fmt::format("each is valid alone, but a check run with them on this platform stops: {}; "
                                       "change or drop one of them",
                                       *error));
}

std::optional<std::string> simgrid_argument_error(const std::string& arg)
{
  // a campaign parses its base scenario's simulation.simgrid once per run: each argument is tried once per process
  static std::map<std::string, std::optional<std::string>> known;
  auto [it, added] = known.try_emplace(arg);
  if (added) it->second = try_in_child(arg);
  return it->second;
}

} // namespace pipesim
