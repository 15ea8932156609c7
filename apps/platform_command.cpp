// `pipesim platform info|export`: show a platform model, write it as SimGrid XML.
#include "apps/platform_command.hpp"

#include "base/input_error.hpp"
#include "platforms/platform_json.hpp"
#include "platforms/simgrid/simgrid_platform.hpp"
#include "scenarios/scenario.hpp"
#include "validation/output_directory.hpp"
#include "validation/scenario_run.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <fstream>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>

namespace pipesim {

namespace {
bool ends_with(const std::string& s, const std::string& suffix)
{
  return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

std::string value(double x) { return std::isinf(x) ? "unbounded" : fmt::format("{:.6g}", x); }

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
  info->add_option("--in", o.in_name, "XML: host acting as P_in (default io)");
  info->add_option("--out", o.out_name, "XML: host acting as P_out (default io)");
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
    PlatformOptions options;
    options.hosts = host_pattern(hosts);
    SourceMap sources; // the io hosts are --in and --out's, the rest the file's
    sources.add_file("platform", file);
    sources.add_option("platform.io.in", "--in", in_name);
    sources.add_option("platform.io.out", "--out", out_name);
    if (!hosts.empty()) sources.add_option("platform.hosts", "--hosts");
    pf = with_sources(sources, [&] { return load_xml_platform(file, in_name, out_name, options); });
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
  std::ofstream out(output);
  if (!out) throw InputError::option("--output", output, "cannot write the file");
  out << export_xml(pf);
  if (!out.flush()) throw InputError::option("--output", output, "write failed");
  std::cerr << fmt::format("pipesim: wrote {} ({} processors, P_in '{}', P_out '{}')\n", output, pf.p(), pf.in_name(),
                           pf.out_name());
  return 0;
}

} // namespace pipesim
