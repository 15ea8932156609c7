// `pipesim platform info|export`: show a platform model, write it as SimGrid XML.
#include "apps/platform_command.hpp"

#include "base/input_error.hpp"
#include "platforms/platform_json.hpp"
#include "platforms/simgrid/simgrid_describe.hpp"
#include "platforms/simgrid/simgrid_platform.hpp"
#include "platforms/simgrid/simgrid_profiles.hpp"
#include "scenarios/scenario.hpp"
#include "validation/campaigns/output_directory.hpp"
#include "validation/evaluation/scenario_run.hpp"

#include <algorithm>
#include <filesystem>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <fstream>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <sstream>

namespace pipesim {

namespace {
bool ends_with(const std::string& s, const std::string& suffix)
{
  return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

std::string value(double x) { return std::isinf(x) ? "unbounded" : fmt::format("{:.6g}", x); }

/// The hosts and links an XML file turns off and on by state profiles, as one line ("" when none).
std::string state_profiles_line(const std::string& xml_file)
{
  std::ifstream in(xml_file);
  std::stringstream text;
  text << in.rdbuf();
  std::string hosts, links;
  for (const XmlProfileFile& p : scan_xml_profile_files(xml_file, text.str()))
    if (p.attribute == "state_file") {
      std::string& list = p.element == "link" ? links : hosts;
      list += fmt::format("{}{} ({})", list.empty() ? "" : ", ", p.id, p.file);
    }
  if (hosts.empty() && links.empty()) return "";
  return fmt::format("state      off and on by state profiles: {}{}{}; every simulation runs them (a host off is a "
                     "crash, a link off fails its transfers: docs/semantics.md)\n",
                     hosts.empty() ? "" : "hosts " + hosts, !hosts.empty() && !links.empty() ? "; " : "",
                     links.empty() ? "" : "links " + links);
}

/// One profile in a line: its points, its repetition, its range of values and where it came from.
std::string profile_line(const Profile& p, const std::string& unit)
{
  std::string points;
  for (std::size_t i = 0; i < p.points.size() && i < 4; ++i)
    points += fmt::format("{}({:g}, {:g})", i ? " " : "", p.points[i].date, p.points[i].value);
  if (p.points.size() > 4) points += fmt::format(" ... ({} points)", p.points.size());
  return fmt::format("{}{}, {} in [{:g}, {:g}]{}", points,
                     p.period > 0 ? fmt::format(", repeats every {:g} s", p.period) : "", unit, p.lowest(), p.highest(),
                     p.source.empty() ? "" : fmt::format("  ({})", p.source));
}

/// The platform's profiles (DESIGN.md §3.11): one line per host, pair or link and kind.
void print_profiles(const Platform& pf)
{
  const PlatformProfiles& profiles = pf.profiles();
  if (profiles.empty()) return;
  fmt::print("\nprofiles (date, value) from each date on (docs/dynamic.md)\n");
  auto row = [](const std::string& what, const char* kind, const std::optional<Profile>& p, const std::string& unit) {
    if (p) fmt::print("  {:<18} {:<10} {}\n", what, kind, profile_line(*p, unit));
  };
  for (const auto& h : profiles.hosts) {
    row(h.host, "speed", h.speed, "ratio of s_u");
    row(h.host, "state", h.state, "state (0 off)");
    row(h.host, "nic_in", h.nic_in, "ratio of Bin_u");
    row(h.host, "nic_out", h.nic_out, "ratio of Bout_u");
  }
  for (const auto& p : profiles.pairs) {
    row(p.from + " -> " + p.to, "bandwidth", p.bandwidth, "ratio of b_{u,v}");
    row(p.from + " -> " + p.to, "latency", p.latency, "ratio of c_{u,v}");
  }
  for (const auto& l : profiles.links) {
    row("link " + l.link, "bandwidth", l.bandwidth_profile, "bytes/s");
    row("link " + l.link, "latency", l.latency_profile, "s");
    row("link " + l.link, "state", l.state_profile, "state (0 off)");
  }
  if (!profiles.routes.empty())
    fmt::print("  {} routes between the nodes cross a link with profiles\n", profiles.routes.size());
}

void print_table(const Platform& pf)
{
  auto fl = pf.flags();
  fmt::print("class      {} (SpeedHom {}, LinkHom {}, CardHom {}, FailHom {})\n", to_string(pf.classify()),
             fl.speed_hom, fl.link_hom, fl.card_hom, fl.fail_hom);
  fmt::print("P_in       {}\nP_out      {}\n", pf.in_name(), pf.out_name());
  if (!pf.xml_file().empty()) fmt::print("file       {}\n", pf.xml_file());
  double bmin = unbounded, bmax = 0, cmin = unbounded, cmax = 0;
  for (int u = 0; u < pf.nodes(); ++u)
    for (int v = 0; v < pf.nodes(); ++v)
      if (u != v && u != pf.out() && v != pf.in() && !(u == pf.in() && v == pf.out())) {
        bmin = std::min(bmin, pf.bandwidth(u, v));
        bmax = std::max(bmax, pf.bandwidth(u, v));
        cmin = std::min(cmin, pf.latency(u, v));
        cmax = std::max(cmax, pf.latency(u, v));
      }
  fmt::print("bandwidth  b in [{}, {}] bytes/s\nlatency    c in [{}, {}] s\n", value(bmin), value(bmax), value(cmin),
             value(cmax));
  fmt::print("\n{:<16} {:>12} {:>10} {:>12} {:>12} {:>12}\n", "processor", "speed", "f", "nic_in", "nic_out",
             "b from P_in");
  for (int u = 0; u < pf.p(); ++u) {
    const auto& pr = pf.processor(u);
    fmt::print("{:<16} {:>12} {:>10} {:>12} {:>12} {:>12}\n", pr.name, value(pr.speed), value(pr.failure_probability),
               value(pr.nic_in), value(pr.nic_out), value(pf.bandwidth(pf.in(), u)));
  }
  print_profiles(pf);
}

std::string range_text(const XmlPlatformDescription::Range& r, const char* unit)
{
  if (r.count == 0) return "none";
  return r.min == r.max ? fmt::format("{} {}", value(r.min), unit)
                        : fmt::format("[{}, {}] {}", value(r.min), value(r.max), unit);
}

/// A bare SimGrid platform: its hosts, zones, links and routes as SimGrid holds them, no host taken as P_in or P_out.
void print_description(const XmlPlatformDescription& d)
{
  fmt::print("file       {} (SimGrid XML)\n", d.file);
  fmt::print("hosts      {} in {} zone{}\n", d.hosts.size(), d.zones.size(), d.zones.size() == 1 ? "" : "s");
  fmt::print("links      {}: bandwidth {}, latency {}\n", d.link_bandwidth.count,
             range_text(d.link_bandwidth, "bytes/s"), range_text(d.link_latency, "s"));
  std::string over = d.route_hosts < static_cast<int>(d.hosts.size())
                         ? fmt::format(" (between the first {} hosts)", d.route_hosts)
                         : "";
  fmt::print("routes     {} with a route{}: b {}, c {}; {} ordered pairs without\n", d.route_bandwidth.count, over,
             range_text(d.route_bandwidth, "bytes/s"), range_text(d.route_latency, "s"), d.unreachable);
  fmt::print("class      {} if every host is a processor (SpeedHom {}, LinkHom {})\n", to_string(d.platform_class()),
             d.speed_hom, d.link_hom);
  fmt::print("{}", state_profiles_line(d.file));
  fmt::print(
      "P_in/P_out none chosen; a simulation needs them: name two hosts (or one) in a scenario, platform: {{file: "
      "{}, io: {{in: HOST, out: HOST}}}}, or see the platform as a simulation would with --in HOST --out HOST\n",
      d.file);
  fmt::print("\n{:<24} {:<12} {:>6}\n", "zone", "routing", "hosts");
  for (const auto& z : d.zones)
    fmt::print("{:<24} {:<12} {:>6}\n", z.name, z.routing, z.hosts);
  constexpr std::size_t shown = 100;
  fmt::print("\n{:<24} {:>12} {:>6}  {}\n", "host", "speed", "cores", "zone");
  for (std::size_t i = 0; i < d.hosts.size() && i < shown; ++i)
    fmt::print("{:<24} {:>12} {:>6}  {}\n", d.hosts[i].name, value(d.hosts[i].speed), d.hosts[i].cores,
               d.hosts[i].zone);
  if (d.hosts.size() > shown)
    fmt::print("... and {} more hosts (--format json lists them all)\n", d.hosts.size() - shown);
}

/// `--hosts` items as a platform.hosts pattern: "zone:NAME", "regex:EXPR", anything else a glob.
HostPattern host_pattern(const std::vector<std::string>& items)
{
  require_distinct("--hosts", items, " "); // one item per option
  HostPattern pattern;
  pattern.file = "command line";
  pattern.key  = "--hosts";
  for (const auto& item : items) {
    if (item.rfind("zone:", 0) == 0)
      pattern.items.push_back({PatternItem::Kind::zone, item.substr(5)});
    else if (item.rfind("regex:", 0) == 0)
      pattern.items.push_back({PatternItem::Kind::regex, item.substr(6)});
    else
      pattern.items.push_back({PatternItem::Kind::glob, item});
  }
  return pattern;
}

/// `platform info FILE`.
CLI::App* add_info_command(CLI::App* platform, PlatformInfoOptions& o)
{
  auto* info = platform->add_subcommand("info", "Show a platform: a SimGrid XML file or a scenario's platform");
  info->add_option("file", o.file, "SimGrid XML file or scenario YAML file")->required();
  info->add_option("--in", o.in_name,
                   "XML: host acting as P_in (default: io, or, on a platform without a host io and without --out, "
                   "none: the platform is described as SimGrid holds it)");
  info->add_option("--out", o.out_name, "XML: host acting as P_out (default: as --in)");
  info->add_option("--hosts", o.hosts,
                   "XML: select the processors (platform.hosts), one item per option: a glob over host names "
                   "('ash1-*'), zone:NAME (the hosts of a zone) or regex:EXPR (whole host name)");
  add_format_option(info, o.format);
  return info;
}

/// `platform export SCENARIO -o FILE`.
void add_export_command(CLI::App* platform, PlatformExportOptions& o)
{
  auto* exp = platform->add_subcommand("export", "Write a scenario's platform as SimGrid XML");
  add_scenario_argument(exp, o.scenario);
  exp->add_option("-o,--output", o.output, "Output XML file")->required();
}
} // namespace

Command add_platform_command(CLI::App& app)
{
  auto info_options   = std::make_shared<PlatformInfoOptions>();
  auto export_options = std::make_shared<PlatformExportOptions>();
  auto* platform      = app.add_subcommand("platform", "Inspect or export platforms");
  platform->require_subcommand(1);
  CLI::App* info = add_info_command(platform, *info_options);
  add_export_command(platform, *export_options);
  return {platform, [info, info_options, export_options] {
            const PlatformInfoOptions& i = *info_options;
            if (*info) {
              for (const char* xml_only : {"--in", "--out"}) // a scenario names its own P_in and P_out
                if (info->get_option(xml_only)->count() > 0 && !ends_with(i.file, ".xml"))
                  throw InputError::option(xml_only, std::string_view(xml_only) == "--in" ? i.in_name : i.out_name,
                                           fmt::format("names P_in or P_out of a SimGrid XML file; the scenario {} "
                                                       "names them itself (platform.io: {{in: ..., out: ...}})",
                                                       i.file));
              return platform_info(i.file, i.in_name, i.out_name, i.format, i.hosts);
            }
            return platform_export(export_options->scenario, export_options->output);
          }};
}

int platform_info(const std::string& file, const std::string& in_name, const std::string& out_name, OutputFormat format,
                  const std::vector<std::string>& hosts)
{
  Platform pf;
  if (ends_with(file, ".xml")) {
    std::string in = in_name, out = out_name.empty() ? in_name : out_name;
    if (in.empty() && out.empty()) { // no I/O server chosen: "io" if the platform has one, else a description
      XmlPlatformDescription d = describe_xml_platform(file);
      if (std::none_of(d.hosts.begin(), d.hosts.end(), [](const auto& h) { return h.name == "io"; })) {
        if (!hosts.empty())
          throw InputError::option("--hosts", hosts.front(),
                                   fmt::format("selects the processors, the hosts around P_in and P_out; {} has no "
                                               "host 'io': give --in HOST --out HOST too",
                                               file));
        if (format == OutputFormat::json)
          std::cout << nlohmann::json(d).dump(2) << "\n";
        else
          print_description(d);
        return 0;
      }
      in = out = "io";
    }
    if (in.empty()) in = out;
    PlatformOptions options;
    options.hosts = host_pattern(hosts);
    SourceMap sources; // the io hosts are --in and --out's (when given), the rest the file's
    sources.add_file("platform", file);
    if (!in_name.empty()) sources.add_option("platform.io.in", "--in", in_name);
    if (!out_name.empty())
      sources.add_option("platform.io.out", "--out", out_name);
    else if (!in_name.empty())
      sources.add_option("platform.io.out", "--in", in_name);
    if (!hosts.empty()) sources.add_option("platform.hosts", "--hosts");
    pf = with_sources(sources, [&] { return load_xml_platform(file, in, out, options); });
  } else if (!hosts.empty()) {
    throw InputError::option("--hosts", fmt::format("{}", fmt::join(hosts, " ")),
                             fmt::format("selects hosts of a SimGrid XML file; the scenario {} selects its processors "
                                         "with platform.hosts",
                                         file));
  } else {
    pf = load_platform(load_scenario(file));
  }
  if (format == OutputFormat::json)
    std::cout << platform_to_json(pf).dump(2) << "\n";
  else
    print_table(pf);
  return 0;
}

int platform_export(const std::string& scenario_file, const std::string& output)
{
  require_output_file(output, "--output");
  Platform pf = load_platform(load_scenario(scenario_file));
  // profile files go next to the XML (SimGrid looks them up from the XML's directory): <stem>-<n>.profile
  std::string prefix = std::filesystem::path(output).stem().string() + "-";
  std::string xml    = export_xml(pf, prefix);
  auto write         = [&output](const std::string& file, const std::string& text) {
    // a profile file is written with --output's XML: a refusal names the option and the file
    auto refusal = [&](const char* what) {
      return InputError::option("--output", output, file == output ? what : fmt::format("{}: {}", file, what));
    };
    std::ofstream out(file);
    if (!out) throw refusal("cannot write the file");
    out << text;
    if (!out.flush()) throw refusal("write failed");
  };
  write(output, xml);
  auto profiles = exported_profiles(pf, prefix);
  for (const auto& p : profiles)
    write((std::filesystem::path(output).parent_path() / p.file).string(), p.text);
  std::cerr << fmt::format(
      "pipesim: wrote {} ({} processors, P_in '{}', P_out '{}'{})\n", output, pf.p(), pf.in_name(), pf.out_name(),
      profiles.empty() ? "" : fmt::format(", {} profile files {}*.profile", profiles.size(), prefix));
  return 0;
}

} // namespace pipesim
