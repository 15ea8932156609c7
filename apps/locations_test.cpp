// Issue 31: every refusal names the file and line of the key it is about (docs/scenarios.md "Errors"). Two halves:
// a lint over the library's sources (every InputError is built by one of the structured factories, a keyed one names
// a scenario key), and a table of bad inputs, one per class of refusal, run through the command line: exit 2 and the
// message's place, key, value and limit.
#include "cli_test_util.hpp"

#include <algorithm>
#include <filesystem>
#include <fmt/format.h>
#include <fstream>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <iostream>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <unistd.h>

using ::testing::HasSubstr;
namespace fs = std::filesystem;

namespace {

std::string locations_file_text(const fs::path& path)
{
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

/// The library's and the command line's sources (tests, benchmarks and fuzz harnesses throw no refusals of their own).
std::vector<fs::path> library_sources()
{
  std::vector<fs::path> files;
  for (const char* folder : {"base", "platforms", "scenarios", "model", "mappers", "simulator", "validation", "apps"})
    for (const auto& entry : fs::recursive_directory_iterator(fs::path(PIPESIM_SOURCE_DIR) / folder)) {
      const std::string name = entry.path().filename().string();
      const std::string ext  = entry.path().extension().string();
      if ((ext == ".cpp" || ext == ".hpp") && name.find("_test") == std::string::npos &&
          name.find("fixtures") == std::string::npos && name != "testing_mappers.cpp")
        files.push_back(entry.path());
    }
  return files;
}

/// The text of a call's first argument, from `open` (just after its parenthesis) to the first top-level comma.
std::string first_argument(const std::string& text, std::size_t open)
{
  int depth   = 0;
  bool quoted = false;
  for (std::size_t i = open; i < text.size(); ++i) {
    char c = text[i];
    if (c == '"' && text[i - 1] != '\\') quoted = !quoted;
    if (quoted) continue;
    if (c == '(' || c == '[' || c == '{') ++depth;
    if ((c == ')' || c == ']' || c == '}') && depth-- == 0) return text.substr(open, i - open);
    if (c == ',' && depth == 0) return text.substr(open, i - open);
  }
  return text.substr(open);
}

/// A keyed refusal's key names a scenario key: a literal under one of the scenario's top-level keys, one of the key
/// helpers of the model (mapping[j]..., task_chain.tasks[i]...), or a parameter that carries one (listed).
bool names_a_scenario_key(const std::string& argument)
{
  static const std::regex literal(
      R"re("(name|pipeline|task_chain|platform|mapper|mapping|objective|mapper_options|simulation|analytic|dynamic)[.\[{"])re");
  static const std::regex helper(
      R"re(\b(interval_key|replica_key|first_group_key|first_deal_key|task_key|fit_key|where)\()re");
  static const std::set<std::string> forwarded{"key", "std::string(key)", "std::string(what)"};
  return std::regex_search(argument, literal) || std::regex_search(argument, helper) || forwarded.count(argument) > 0;
}

TEST(Locations, EveryRefusalIsBuiltWithItsFields)
{
  static const std::regex construction(R"(InputError\s*(::\s*(\w+)\s*)?\()");
  std::map<std::string, int> kinds; // factory -> number of sites
  std::vector<std::string> wrong;
  for (const fs::path& path : library_sources()) {
    const std::string text = locations_file_text(path);
    const std::string file = fs::relative(path, PIPESIM_SOURCE_DIR).string();
    if (file == "base/input_error.hpp" || file == "base/input_error.cpp") continue; // the type itself
    for (std::sregex_iterator it(text.begin(), text.end(), construction), end; it != end; ++it) {
      const std::size_t at         = static_cast<std::size_t>(it->position());
      const std::string kind       = (*it)[2].matched ? (*it)[2].str() : "";
      const std::size_t line       = static_cast<std::size_t>(std::count(text.begin(), text.begin() + at, '\n')) + 1;
      const std::string where      = fmt::format("{}:{}: {}", file, line, text.substr(at, 60));
      const std::size_t line_start = text.rfind('\n', at) == std::string::npos ? 0 : text.rfind('\n', at);
      if (text.substr(line_start, at - line_start).find("//") != std::string::npos) continue; // a comment
      if (kind.empty()) { // a declaration or a catch is no construction; anything else builds an unlocated string
        const std::string before = text.substr(at >= 20 ? at - 20 : 0, at >= 20 ? 20 : at);
        if (before.find("catch") == std::string::npos && before.find("const ") == std::string::npos)
          wrong.push_back(where + " (not one of the factories: keyed, at, in_file, option)");
        continue;
      }
      if (kind == "deserialize") continue; // a child's error coming back whole
      if (kind != "keyed" && kind != "at" && kind != "in_file" && kind != "option") {
        wrong.push_back(where + " (unknown factory)");
        continue;
      }
      ++kinds[kind];
      if (kind == "keyed" && !names_a_scenario_key(first_argument(text, at + it->length())))
        wrong.push_back(where + " (a keyed refusal whose key is not a scenario key)");
    }
    if (text.find(" located(") != std::string::npos || text.find("(located(") != std::string::npos)
      wrong.push_back(file + ": builds a \"file:line: message\" string (located()): use InputError::at");
  }
  for (const std::string& w : wrong)
    ADD_FAILURE() << w;
  // The sites, as counted when issue 31 converted them (more is fine: the lint above holds for every one).
  EXPECT_GE(kinds["keyed"], 100) << "keyed";
  EXPECT_GE(kinds["at"], 10) << "at";
  EXPECT_GE(kinds["in_file"], 30) << "in_file";
  EXPECT_GE(kinds["option"], 50) << "option";
  for (const auto& [kind, count] : kinds)
    std::cout << kind << ": " << count << " sites\n";
}

} // namespace

namespace {

/// A scenario's first 10 lines: 3 stages, processors P1..P3 (failure probability 0.1), on lines 1-10.
const std::string base = "name: t\n"                                               // 1
                         "pipeline:\n"                                             // 2
                         "  w: [10, 20, 5]\n"                                      // 3
                         "  delta: [10, 10, 10, 10]\n"                             // 4
                         "platform:\n"                                             // 5
                         "  processors:\n"                                         // 6
                         "    - {name: P1, speed: 12, failure_probability: 0.1}\n" // 7
                         "    - {name: P2, speed: 10, failure_probability: 0.1}\n" // 8
                         "    - {name: P3, speed: 10, failure_probability: 0.1}\n" // 9
                         "  bandwidth: 10\n";                                      // 10

/// 6 stages dealt over 7, 11, 13, 17, 19 and 23 processors (90 in all): the replica counts' least common multiple,
/// 323323 after the fifth interval, is 7436429 with the sixth, above the limit of 10^6. mapping[5] is on line
/// 4 + 2 + 90 + 2 + 5 + 1 = 104 (name and pipeline, platform and processors, 90 processors, bandwidth and mapping, 5
/// intervals before it).
std::string deal_round_scenario()
{
  std::string s = "name: lcm\npipeline:\n  w: [1, 1, 1, 1, 1, 1]\n  delta: [1, 1, 1, 1, 1, 1, 1]\nplatform:\n"
                  "  processors:\n";
  for (int u = 1; u <= 90; ++u)
    s += fmt::format("    - {{name: P{}, speed: 1}}\n", u);
  s += "  bandwidth: 1\nmapping:\n";
  int next  = 1;
  int stage = 1;
  for (int count : {7, 11, 13, 17, 19, 23}) {
    std::vector<std::string> hosts;
    for (int k = 0; k < count; ++k)
      hosts.push_back(fmt::format("P{}", next++));
    s += fmt::format("  - {{stages: {}, replicas: [{}], replication: deal}}\n", stage++, fmt::join(hosts, ", "));
  }
  return s;
}

/// One class of refusal: the files of a fresh directory, the command (run there) and what the message must say.
struct Refusal {
  std::string name;
  std::map<std::string, std::string> files;
  std::string args;
  std::vector<std::string> said; // the place, key, value and limit, as fragments of the message
};

std::vector<Refusal> refusals()
{
  const std::string xml      = std::string(PIPESIM_SOURCE_DIR) + "/platforms/examples/star.xml";
  const std::string campaign = "name: c\nmode: analytic\nbase: s.yaml\n"; // lines 1-3
  return {
      {"a key the loader refuses",
       {{"s.yaml", base + "mapper: br07.one-to-one\nsimulation:\n  datasets: 1\n"}},
       "map s.yaml",
       {"s.yaml:13: key 'simulation.datasets': value '1': expected an integer in [2, 10000000]"}},
      {"the evaluators refuse a replica of the explicit mapping before anything runs (validation/run_checks, keyed)",
       {{"s.yaml",
         base + "mapping:\n  - stages: [1, 2]\n    replicas:\n      - [P1, P2]\n  - {stages: 3, replicas: [P3]}\n"}},
       "map s.yaml",
       {"s.yaml:14: key 'mapping[0].replicas[0]': value '[P1, P2]': ", "a data-parallel processor group is a seed "
                                                                       "001 module instance"}},
      {"a mapper refuses the problem (mappers/, keyed): the mapper's line",
       {{"s.yaml", base + "mapper: hedpm\nsimulation:\n  model: multi-port\n"}},
       "map s.yaml",
       {"s.yaml:11: key 'mapper': value 'hedpm': mapper 'hedpm' cannot handle this problem: it accepts the one-port "
        "model"}},
      {"a mapper chosen on the command line refuses: the option",
       {{"s.yaml", base + "mapper: br07.one-to-one\nsimulation:\n  model: multi-port\n"}},
       "map s.yaml --mapper hedpm",
       {"--mapper hedpm: mapper 'hedpm' cannot handle this problem"}},
      {"the simulator refuses an election policy (simulator/, keyed, in a child process)",
       {{"s.yaml", base + "mapping:\n  - {stages: [1, 3], replicas: [P1, P2], replication: deal}\nsimulation:\n"
                          "  datasets: 20\n  failures: {model: probability, election: min-comm}\n"}},
       "simulate s.yaml",
       {"s.yaml:15: key 'simulation.failures.election': value 'min-comm': this policy elects among active replicas "
        "only (seed 004), and mapping[0].replication deals its data sets"}},
      {"deal replication's round above its limit (model/deal.cpp)",
       {{"s.yaml", deal_round_scenario()}},
       "map s.yaml",
       {"s.yaml:104: key 'mapping[5].replicas': value '23': deal replication: ",
        "least common multiple of 7436429, above the limit of 1000000"}},
      {"a size SimGrid cannot send (simulator/run.cpp)",
       {{"s.yaml", "name: t\npipeline:\n  w: [10, 20, 5]\n  delta: [10, 1e19, 10, 10]\n" +
                       base.substr(base.find("platform:")) +
                       "mapper: br07.one-to-one\nsimulation: {network: simgrid}\n"}},
       "simulate s.yaml",
       {"s.yaml:4: key 'pipeline.delta[1]': value '1e+19': bytes: ", "at most 2^63 - 1"}},
      {"a fit that cannot tell a function's coefficients apart (model/sv95/fit.cpp)",
       {{"f.yaml", "name: f\ntask_chain:\n  tasks:\n    - name: a\n      exec: [0.01, 0.4, 0.001]\n"
                   "      icom: [0.002, 0.05, 0]\n      ecom: [0.005, 0.1, 0.1, 0.0005, 0.0005]\n    - name: b\n"
                   "      exec: [0.02, 1.6, 0.002]\nplatform:\n"
                   "  generate: {class: fully-homogeneous, p: 2, speed: 1, bandwidth: 1, seed: 1}\nmapper: sv95.dp\n"}},
       "fit f.yaml",
       {"f.yaml:5: key 'task_chain.tasks[0].exec': value '[0.01, 0.4, 0.001]': fit: f_exec(a) needs 3 samples",
        "only p = 1..2 are possible"}},
      {"a campaign's swept value the loader refuses: the line of that value",
       {{"s.yaml", base + "mapper: br07.one-to-one\n"},
        {"c.yaml", campaign + "sweep:\n  simulation.datasets:\n    - 10\n    - 1\n"}},
       "campaign c.yaml --out out",
       {"c.yaml:7: key 'simulation.datasets': value '1': run 1 (simulation.datasets=1): expected an integer in [2, "
        "10000000]"}},
      {"a campaign's swept mapper that does not exist",
       {{"s.yaml", base + "mapper: br07.one-to-one\n"},
        {"c.yaml", campaign + "sweep:\n  mapper:\n    - br07.one-to-one\n    - nope\n"}},
       "campaign c.yaml --out out",
       {"c.yaml:7: key 'mapper': value 'nope': run 1 (mapper=nope): unknown mapper (known: "}},
      {"a campaign's base scenario refused: its own line",
       {{"s.yaml", base + "mapper: nope\n"}, {"c.yaml", campaign + "seed: [1, 2]\n"}},
       "campaign c.yaml --out out",
       {"s.yaml:11: key 'mapper': value 'nope': run 0 (seed=1): unknown mapper"}},
      {"an edit list's edit that matches nothing (whatif)",
       {{"s.yaml", base + "mapper: br07.one-to-one\n"},
        {"e.yaml", "variants:\n  - name: slow\n    edits:\n      - {scale_speed: 0.5, hosts: \"Q*\"}\n"}},
       "whatif s.yaml --edits e.yaml --no-simulate",
       {"e.yaml:4: key 'variants[0].edits[0]': value 'scale_speed 0.5 on hosts Q*': Q* matches no processor"}},
      {"an XML platform's element SimGrid would abort on",
       {{"x.xml", "<?xml version='1.0'?>\n<platform version=\"4.1\">\n  <include file=\"o.xml\"/>\n</platform>\n"}},
       "platform info x.xml",
       {"x.xml:3: element <include>: removed in SimGrid 3.18"}},
      {"an io host the XML platform does not have: the option that named it",
       {},
       "platform info " + xml + " --in nope",
       {"--in nope: the host named as P_in and P_out is not in the platform", "(hosts: cpu-1, "}},
      {"a command-line value that does not fit the scenario",
       {{"s.yaml", base + "mapper: br07.one-to-one\n"}},
       "simulate s.yaml --warmup 500",
       {"--warmup 500: must be below the number of data sets (200)"}},
      // the areas main gained after issue 31's conversion (the merge of 12c3afd): each names its file, line, key and
      // value
      {"a profile whose dates go back (platform.profiles)",
       {{"s.yaml",
         base + "  profiles:\n    hosts:\n      - {host: P1, speed: [[0, 1], [-1, 2]]}\nmapper: br07.one-to-one\n"}},
       "map s.yaml",
       {"s.yaml:13: key 'platform.profiles.hosts[0].speed[1]': value '[-1, 2]': "}},
      {"a re-mapping cost with a combination not built (dynamic:)",
       {{"s.yaml", base + "mapper: br07.one-to-one\ndynamic: {policy: periodic, period: 10, cost: handover, on_crash: "
                          "remap}\n"}},
       "map s.yaml",
       {"s.yaml:12: key 'dynamic.cost': value 'handover': with on_crash: remap is not built"}},
      {"a random-time law with a negative coefficient of variation (pipeline.variability)",
       {{"s.yaml", "name: t\npipeline:\n  w: [10, 20, 5]\n  delta: [10, 10, 10, 10]\n"
                   "  variability: {work: {law: lognormal, cv: -1}}\n" +
                       base.substr(base.find("platform:")) + "mapper: br07.one-to-one\n"}},
       "map s.yaml",
       {"s.yaml:5: key 'pipeline.variability.work.cv': value '-1': "}},
      {"an analytic network that does not exist (analytic.network)",
       {{"s.yaml", base + "mapper: br07.one-to-one\nanalytic: {network: nope}\n"}},
       "map s.yaml",
       {"s.yaml:12: key 'analytic.network': value 'nope': "}},
      {"a re-mapping policy whose mapper refuses the problem (remap, before the simulation starts)",
       {{"s.yaml", base + "mapping:\n  - {stages: [1, 3], replicas: [P1]}\nsimulation: {model: multi-port, datasets: "
                          "20}\ndynamic: {policy: periodic, period: 10, mapper: hedpm}\n"}},
       "simulate s.yaml",
       {"s.yaml:14: key 'dynamic.mapper': value 'hedpm': mapper 'hedpm' cannot handle this problem: it accepts the "
        "one-port model"}},
      {"pareto without a period bound: the objective's place (the document)",
       {{"s.yaml", base + "mapper: br07.one-to-one\nsimulation: {model: multi-port}\n"}},
       "pareto s.yaml",
       {"s.yaml:1: key 'objective.period_bound': missing: no period bound to sweep"}},
  };
}

TEST(Locations, EveryClassOfRefusalNamesPlaceKeyValueAndLimit)
{
  for (const Refusal& r : refusals()) {
    fs::path dir = fs::temp_directory_path() / fmt::format("pipesim-locations-{}", getpid());
    fs::remove_all(dir);
    fs::create_directories(dir);
    for (const auto& [name, text] : r.files)
      std::ofstream(dir / name) << text;
    auto [code, out] =
        pipesim::test::shell_output(fmt::format("cd {} && {} {} 2>&1", dir.string(), PIPESIM_EXECUTABLE, r.args));
    EXPECT_EQ(code, 2) << r.name << "\n" << out;
    EXPECT_THAT(out, HasSubstr("pipesim: error: ")) << r.name;
    for (const std::string& fragment : r.said)
      EXPECT_THAT(out, HasSubstr(fragment)) << r.name;
    fs::remove_all(dir);
  }
}

/// An environment variable's refusal names the variable and the value as typed (the command line's rendering).
TEST(Locations, AResourceLimitNamesItsVariableAndValue)
{
  auto [code, out] = pipesim::test::shell_output(
      fmt::format("PIPESIM_TIME_LIMIT=soon {} simulate {}/scenarios/examples/quickstart.yaml 2>&1", PIPESIM_EXECUTABLE,
                  PIPESIM_SOURCE_DIR));
  EXPECT_EQ(code, 2) << out;
  EXPECT_THAT(out, HasSubstr("pipesim: error: PIPESIM_TIME_LIMIT=soon: expected seconds")) << out;
}

} // namespace
