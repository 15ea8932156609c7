// The `pipesim` command line: map, simulate, list mappers, inspect and export platforms, campaigns, what-if.
// Each subcommand registers its options and runs in its own file; this one builds the app and dispatches.
#include "apps/campaign_commands.hpp"
#include "apps/cli_options.hpp"
#include "apps/fit_command.hpp"
#include "apps/platform_command.hpp"
#include "apps/scenario_commands.hpp"
#include "apps/study_commands.hpp"
#include "base/input_error.hpp"
#include "validation/campaigns/slurm_scripts.hpp"

#include <CLI/CLI.hpp>
#include <filesystem>
#include <fmt/format.h>
#include <iostream>
#include <xbt/base.h> // before simgrid/version.h, which uses its SG_BEGIN_DECL without including it

#include <simgrid/version.h>

using namespace pipesim;

namespace {

/// The command line as a shell reads it back (each word quoted when needed), for the files that record it.
std::string join(int argc, char** argv)
{
  std::string out;
  for (int i = 0; i < argc; ++i)
    out += (i ? " " : "") + shell_quote(argv[i]);
  return out;
}

/// The invocation, and in `args` the words left for CLI11: SimGrid's own --cfg= and --log= options are set aside to
/// pass through to every simulation.
Invocation read_invocation(int argc, char** argv, std::vector<char*>& args)
{
  Invocation invocation;
  invocation.command_line = join(argc, argv);
  for (int i = 0; i < argc; ++i) {
    std::string a = argv[i];
    if (i > 0 && (a.rfind("--cfg=", 0) == 0 || a.rfind("--log=", 0) == 0))
      invocation.simgrid_args.push_back(a);
    else
      args.push_back(argv[i]);
  }
  return invocation;
}

/// `pipesim --version`: pipesim's version, the git commit it was configured from, the SimGrid library it runs with.
std::string version_text()
{
  int major = 0;
  int minor = 0;
  int patch = 0;
  sg_version_get(&major, &minor, &patch);
  return fmt::format("pipesim {} (git commit {})\nSimGrid {}.{}.{}", PIPESIM_VERSION, PIPESIM_GIT_COMMIT, major, minor,
                     patch);
}

/// Runs the subcommand the user chose; bad input exits 2, anything else thrown exits 1.
int run_chosen(const std::vector<Command>& commands)
{
  try {
    for (const auto& command : commands)
      if (*command.app) return command.run();
  } catch (const InputError& e) {
    std::cerr << "pipesim: error: " << e.what() << "\n";
    return 2;
  } catch (const std::filesystem::filesystem_error& e) { // --out on a file, in a read-only or missing place, ...
    std::cerr << "pipesim: error: " << e.path1().string() << ": " << e.code().message() << "\n";
    return 2;
  } catch (const std::exception& e) {
    std::cerr << "pipesim: internal error: " << e.what() << "\n";
    return 1;
  }
  return 1;
}

} // namespace

int main(int argc, char** argv)
{
  std::vector<char*> args;
  const Invocation invocation = read_invocation(argc, argv, args);

  CLI::App app{"pipesim: map pipelined applications onto heterogeneous platforms, compute their analytic period, "
               "latency and failure probability, and check them by SimGrid simulation.\n"
               "SimGrid options --cfg=... and --log=... are passed to every simulation.\n"
               "Each simulation process may use PIPESIM_MEMORY_LIMIT of memory (default: half of this machine's; "
               "e.g. 32GB, 80%, none) and PIPESIM_TIME_LIMIT of time (default 6h; e.g. 90m, none).\n"
               "Exit codes: 0 success, 2 bad input, 1 internal error."};
  app.require_subcommand(1);
  app.set_version_flag("--version", version_text);
  // Registered in the order `pipesim --help` lists them.
  const std::vector<Command> commands{add_map_command(app, invocation),
                                      add_simulate_command(app, invocation),
                                      add_hedpm_trace_command(app),
                                      add_fit_command(app, invocation),
                                      add_mappers_command(app),
                                      add_platform_command(app),
                                      add_campaign_command(app, invocation),
                                      add_merge_command(app),
                                      add_pareto_command(app, invocation),
                                      add_whatif_command(app, invocation),
                                      add_report_command(app)};

  require_whole_numbers(app);
  try {
    refuse_empty_list_items(app, {args.begin() + 1, args.end()});
    app.parse(static_cast<int>(args.size()), args.data());
  } catch (const InputError& e) {
    std::cerr << "pipesim: error: " << e.what() << "\n";
    return 2;
  } catch (const CLI::ParseError& e) {
    int code = app.exit(e);
    return code == 0 ? 0 : 2;
  }
  return run_chosen(commands);
}
