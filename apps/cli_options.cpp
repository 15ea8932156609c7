// Options several `pipesim` subcommands share, and the scenario overrides they set.
#include "apps/cli_options.hpp"

#include "base/input_error.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <climits>
#include <cmath>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <map>
#include <thread>

namespace pipesim {

Scenario scenario_with_overrides(const std::string& file, const ScenarioOverrides& o,
                                 const std::vector<std::string>& simgrid_args)
{
  Scenario s = load_scenario(file);
  apply_overrides(s, o, simgrid_args);
  return s;
}

int jobs_or_cores(int jobs)
{
  return jobs > 0 ? jobs : static_cast<int>(std::max(1U, std::thread::hardware_concurrency()));
}

CLI::Option* add_scenario_argument(CLI::App* command, std::string& file, const std::string& help)
{
  return command->add_option("scenario", file, help)->required();
}

CLI::Option* add_format_option(CLI::App* command, OutputFormat& format)
{
  return add_enum_option<OutputFormat>(command, "--format", format, "Output format");
}

CLI::Option* add_mapper_option(CLI::App* command, std::string& mapper, const std::string& help)
{
  return command->add_option("--mapper", mapper, help);
}

std::optional<long long> whole_integer(const std::string& text, long long minimum, long long maximum)
{
  std::size_t skip  = text.size() > 1 && text[0] == '+' && text[1] != '-' ? 1 : 0;
  long long value   = 0;
  auto [end, error] = std::from_chars(text.data() + skip, text.data() + text.size(), value);
  if (error == std::errc{} && end == text.data() + text.size() && value >= minimum && value <= maximum) return value;
  return std::nullopt;
}

CLI::Validator integer_in(long long minimum, long long maximum, const std::string& why)
{
  // Checked on the text, before CLI11 converts it: its conversion clamps 2^64 - 1 to 2^63 - 1 without a word, and
  // its own range checks print the largest double in full (309 digits).
  return CLI::Validator(
      [=](std::string& text) -> std::string {
        if (whole_integer(text, minimum, maximum)) return "";
        return fmt::format("{} is not an integer in [{}, {}]{}", text, minimum, maximum, why.empty() ? "" : ": " + why);
      },
      fmt::format(">= {}", minimum));
}

namespace {

/// The check require_whole_numbers adds to an integer option; it also rewrites the text as CLI11 must read it (no
/// '+', no leading zero: "010" is ten, not CLI11's octal eight).
std::string whole_integer_text(std::string& text)
{
  std::size_t sign = !text.empty() && (text[0] == '+' || text[0] == '-') ? 1 : 0;
  bool digits      = text.size() > sign && std::all_of(text.begin() + static_cast<std::ptrdiff_t>(sign), text.end(),
                                                       [](unsigned char c) { return std::isdigit(c); });
  if (!digits) return fmt::format("{} is not an integer (decimal digits, e.g. 12)", text);
  if (auto value = whole_integer(text, LLONG_MIN, LLONG_MAX)) text = std::to_string(*value);
  return ""; // beyond 64 bits: the option's range check, or CLI11's conversion, says so
}

std::string whole_real_text(std::string& text)
{
  std::size_t skip  = text.size() > 1 && text[0] == '+' && text[1] != '-' ? 1 : 0;
  double value      = 0;
  auto [end, error] = std::from_chars(text.data() + skip, text.data() + text.size(), value);
  if (error == std::errc{} && end == text.data() + text.size() && std::isfinite(value)) return "";
  return fmt::format("{} is not a finite decimal number (e.g. 2.5 or 1e-3)", text);
}

/// "--name=value" -> {"--name", "value"}; "--name" -> {"--name", next}; anything else -> {"", ""}.
std::pair<std::string, std::string> split_option_word(const std::string& word, const std::string& next)
{
  if (word.rfind("--", 0) != 0) return {"", ""};
  auto equals = word.find('=');
  if (equals == std::string::npos) return {word, next};
  return {word.substr(0, equals), word.substr(equals + 1)};
}

/// All options of `app` and of its subcommands, recursively.
void each_option(CLI::App& app, const std::function<void(CLI::Option&)>& visit)
{
  for (CLI::Option* option : app.get_options())
    visit(*option);
  for (CLI::App* sub : app.get_subcommands([](CLI::App*) { return true; }))
    each_option(*sub, visit);
}

} // namespace

void require_whole_numbers(CLI::App& app)
{
  each_option(app, [](CLI::Option& option) {
    std::string type = option.get_type_name();
    type             = type.substr(0, type.find(':')); // the type, before the validators' descriptions
    if (type == "INT" || type == "UINT") // a transform (it rewrites the text), run before the option's own checks
      option.transform(CLI::Validator(whole_integer_text, ""));
    else if (type == "FLOAT")
      option.check(CLI::Validator(whole_real_text, ""));
  });
}

void refuse_empty_list_items(const CLI::App& app, const std::vector<std::string>& words)
{
  std::map<std::string, char> lists; // "--bounds" -> ','
  std::function<void(const CLI::App&)> collect = [&](const CLI::App& a) {
    for (const CLI::Option* option : a.get_options())
      if (option->get_delimiter() != '\0')
        for (const auto& name : option->get_lnames())
          lists["--" + name] = option->get_delimiter();
    for (const CLI::App* sub : a.get_subcommands([](const CLI::App*) { return true; }))
      collect(*sub);
  };
  collect(app);
  for (std::size_t i = 0; i < words.size(); ++i) {
    auto [name, value] = split_option_word(words[i], i + 1 < words.size() ? words[i + 1] : "");
    auto list          = lists.find(name);
    if (list == lists.end()) continue;
    std::string d(1, list->second);
    std::string padded = d + value + d;
    if (padded.find(d + d) != std::string::npos)
      throw InputError::option(name, value,
                               fmt::format("an empty item in a list: expected items separated by '{}', none empty", d));
  }
}

void require_distinct(const std::string& option, const std::vector<std::string>& items, const std::string& separator)
{
  for (std::size_t i = 0; i < items.size(); ++i)
    for (std::size_t j = 0; j < i; ++j)
      if (items[i] == items[j])
        throw InputError::option(option, fmt::format("{}", fmt::join(items, separator)),
                                 fmt::format("'{}' is given twice: expected each item once", items[i]));
}

CLI::Option* add_seed_option(CLI::App* command, long long& seed, const std::string& help)
{
  return command->add_option("--seed", seed, help)
      ->check(integer_in(0, LLONG_MAX, "seeds go up to 2^63 - 1, as simulation.seed"));
}

CLI::Option* add_datasets_option(CLI::App* command, int& datasets)
{
  return command->add_option("--datasets", datasets, "Number of data sets N (overrides simulation.datasets)")
      ->check(integer_in(2, max_simulated_datasets,
                         "a period needs at least 2 data sets (the first output is its reference), and "
                         "a run keeps every data set's times"));
}

CLI::Option* add_precision_option(CLI::App* command, double& precision, const std::string& help)
{
  return command->add_option("--precision", precision, help)
      ->check(CLI::Validator(
          [](std::string& text) -> std::string {
            double p       = 0;
            auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), p);
            if (ec != std::errc() || end != text.data() + text.size() || !(p > 0 && p < 1))
              return fmt::format("--precision {}: expected a number in (0, 1), the relative half-width of the 95 % "
                                 "interval of the period (0.01: within +/- 1 %)",
                                 text);
            return {};
          },
          "in (0, 1)"));
}

CLI::Option* add_runs_option(CLI::App* command, int& runs)
{
  return command
      ->add_option("--runs", runs, "Monte Carlo crash runs (overrides simulation.runs; needs a failure model)")
      ->check(integer_in(1, max_monte_carlo_runs, "Monte Carlo runs take about 15 ms each on 2 cores"));
}

CLI::Option* add_jobs_option(CLI::App* command, int& jobs, const std::string& help, const std::string& names)
{
  return command->add_option(names, jobs, help)->check(integer_in(1, INT_MAX));
}

CLI::Option* add_quiet_option(CLI::App* command, bool& quiet, const std::string& help)
{
  return command->add_flag("--quiet,-q", quiet, help);
}

CLI::Option* add_out_option(CLI::App* command, std::string& dir, const std::string& help)
{
  return command->add_option("--out", dir, help);
}

} // namespace pipesim
