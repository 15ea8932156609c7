// What every `pipesim` subcommand shares: the invocation, the registered-command record, the options several
// subcommands declare (--seed, --jobs, --datasets, --runs, --format, --out, ...) and the scenario overrides they set.
#pragma once

#include "apps/cli_enums.hpp"
#include "scenarios/scenario.hpp"
#include "validation/evaluation/scenario_overrides.hpp" // ScenarioOverrides, require_work_for_jobs

#include <CLI/CLI.hpp>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace pipesim {

/// What the command line says beyond the subcommand's own options.
struct Invocation {
  std::string command_line;              // as a shell reads it back, for the files that record it
  std::vector<std::string> simgrid_args; // SimGrid's --cfg=... and --log=..., passed to every simulation
};

/// A registered subcommand: its CLI11 node and what runs when the user chose it (the exit code).
struct Command {
  CLI::App* app = nullptr;
  std::function<int()> run;
};

/// Loads the scenario `file` and applies the overrides and the SimGrid arguments (apply_overrides).
Scenario scenario_with_overrides(const std::string& file, const ScenarioOverrides& o,
                                 const std::vector<std::string>& simgrid_args);

/// --jobs, or the number of cores when not given.
int jobs_or_cores(int jobs);

/// The required positional `scenario`.
CLI::Option* add_scenario_argument(CLI::App* command, std::string& file,
                                   const std::string& help = "Scenario YAML file");
/// --format table|json.
CLI::Option* add_format_option(CLI::App* command, OutputFormat& format);
/// --mapper NAME.
CLI::Option* add_mapper_option(CLI::App* command, std::string& mapper,
                               const std::string& help = "Use this mapper instead of the scenario's");
/// A CLI11 check that the text is an integer in [minimum, maximum], checked before conversion; the message names the
/// value, the range and `why`.
CLI::Validator integer_in(long long minimum, long long maximum, const std::string& why = "");

/// --seed S (S >= 0).
CLI::Option* add_seed_option(CLI::App* command, long long& seed,
                             const std::string& help = "Seed (overrides simulation.seed)");
/// --datasets N (N > 0).
CLI::Option* add_datasets_option(CLI::App* command, int& datasets);
/// --precision P (0 < P < 1): the relative half-width the period's 95 % interval must reach (simulation.precision).
CLI::Option* add_precision_option(CLI::App* command, double& precision, const std::string& help);
/// --runs R (R > 0): Monte Carlo crash runs.
CLI::Option* add_runs_option(CLI::App* command, int& runs);
/// --jobs J (J > 0) under `names` (e.g. "--jobs,-j").
CLI::Option*
add_jobs_option(CLI::App* command, int& jobs,
                const std::string& help  = "Processes running Monte Carlo runs at once (default: the number of cores)",
                const std::string& names = "--jobs");
/// --quiet/-q: no progress line on stderr (the line is shown only when stderr is a terminal, base/progress.hpp).
CLI::Option* add_quiet_option(CLI::App* command, bool& quiet,
                              const std::string& help = "No progress line on stderr (shown only when stderr is a "
                                                        "terminal)");
/// --out DIR.
CLI::Option* add_out_option(CLI::App* command, std::string& dir, const std::string& help);

/// Every numeric option of `app` and its subcommands, found by its type (CLI11's INT, UINT, FLOAT) rather than listed,
/// takes a whole decimal number or nothing: CLI11 alone reads "010" as 8 (octal), "0x10" as 16, " 5" as 5, and
/// floating-point text by strtold (hexadecimal, "inf", "nan"). A value that is not one is refused at parsing (exit 2,
/// "--OPTION: VALUE is not ...").
void require_whole_numbers(CLI::App& app);

/// An InputError when a comma-separated list option of `app` (any option with a delimiter) is given an empty item in
/// `words` (the command line): "--bounds 1,,2", "--only 3,", which CLI11 would drop without a word.
void refuse_empty_list_items(const CLI::App& app, const std::vector<std::string>& words);

/// An InputError naming `option`, the list and the item when an item of a list option is given twice; `separator`
/// joins the items in the message: "," for a comma-separated list, " " for an option given once per item.
void require_distinct(const std::string& option, const std::vector<std::string>& items,
                      const std::string& separator = ",");

/// The whole text as an integer in [minimum, maximum] (decimal digits, an optional sign), else nullopt.
std::optional<long long> whole_integer(const std::string& text, long long minimum, long long maximum);

} // namespace pipesim
