// Randomised cross-checks of the nine br07 §4 heuristics against exhaustive.interval and br07.one-to-one on
// seeded tiny instances (Communication Homogeneous and Fully Heterogeneous), printing the failing instance.
#include "mappers/br07/heuristic.hpp"
#include "mappers/br07/heuristic_fixtures.hpp"
#include "mappers/br07/one_to_one_search.hpp"
#include "model/analytic.hpp"

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <map>

namespace pipesim {
namespace {

using namespace heuristic_fixtures;

const std::vector<std::string> heuristics = {"br07.h1a-gr", "br07.h1b-gril", "br07.h2-gsw",
                                             "br07.h3-gsd", "br07.h4-gp",    "br07.h5-bs121",
                                             "br07.h6-spl", "br07.h7a-bsl",  "br07.h7b-bsc"};
constexpr double eps                      = 1e-12;

struct Tally {
  int optimal  = 0;
  double ratio = 0; // sum of period / optimum
};

/// Runs every heuristic on the instance; the text lists all of them for the failure message.
std::map<std::string, MapperResult> run_all(const Problem& problem, const MapperOptions& options, std::string& text)
{
  std::map<std::string, MapperResult> results;
  for (const std::string& name : heuristics) {
    results[name] = run_mapper(name, problem, options);
    text += fmt::format("\n  {:14} {} period {}", name, to_text(results[name].mapping, problem.platform),
                        results[name].objective);
  }
  return results;
}

/// Checks that hold on every platform class.
void check_common(const Problem& problem, const MapperOptions& options, const MapperResult& best,
                  std::map<std::string, MapperResult>& results, const std::string& text)
{
  auto cut = br07_greedy_intervals(problem.pipeline.n(), problem.platform.p());
  for (const std::string& name : heuristics) {
    const MapperResult& r = results[name];
    ASSERT_EQ(r.status, SolveStatus::feasible) << name << "\n" << text;
    ASSERT_NO_THROW(validate(r.mapping, problem.pipeline, problem.platform)) << name << "\n" << text;
    ASSERT_NE(classify(r.mapping), MappingRule::general) << name << "\n" << text;
    EXPECT_EQ(r.objective, br07_eq2_period(problem.pipeline, problem.platform, r.mapping)) << name << "\n" << text;
    EXPECT_GE(r.objective, best.objective * (1 - eps)) << name << " beats the optimum\n" << text;
  }
  for (const char* name : {"br07.h1a-gr", "br07.h2-gsw", "br07.h3-gsd", "br07.h4-gp", "br07.h5-bs121"})
    EXPECT_EQ(intervals_of(results[name].mapping), cut) << name << " does not use the L-cut\n" << text;
  // Determinism: the same seed gives the same mapping; with L = 1, H1b is H1a.
  for (const char* name : {"br07.h1a-gr", "br07.h1b-gril"})
    EXPECT_EQ(to_text(run_mapper(name, problem, options).mapping, problem.platform),
              to_text(results[name].mapping, problem.platform))
        << name << " is not deterministic\n"
        << text;
  if (problem.pipeline.n() <= problem.platform.p()) {
    EXPECT_EQ(to_text(results["br07.h1b-gril"].mapping, problem.platform),
              to_text(results["br07.h1a-gr"].mapping, problem.platform))
        << "L = 1: H1b differs from H1a\n"
        << text;
  }
  // H6 never does worse than its start, the whole pipeline on the fastest processor.
  Mapping start = make_interval_mapping({{1, problem.pipeline.n()}}, {br07_processors_by_speed(problem.platform)[0]});
  EXPECT_LE(results["br07.h6-spl"].objective, br07_eq2_period(problem.pipeline, problem.platform, start)) << text;
  for (const char* name : {"br07.h7a-bsl", "br07.h7b-bsc"}) {
    if (results[name].statistics.at("fallback") == 0) {
      EXPECT_LE(results[name].objective, results[name].statistics.at("period_bound")) << name << "\n" << text;
    }
  }
}

/// Guarantees of link-uniform (Communication Homogeneous, equal latencies) platforms.
void check_uniform(const Problem& problem, std::map<std::string, MapperResult>& results, const std::string& text)
{
  double h5 = results["br07.h5-bs121"].objective;
  for (const char* name : {"br07.h1a-gr", "br07.h2-gsw", "br07.h3-gsd", "br07.h4-gp"})
    EXPECT_LE(h5, results[name].objective * (1 + eps)) << "H5 worse than " << name << "\n" << text;
  for (const char* name : {"br07.h7a-bsl", "br07.h7b-bsc"})
    EXPECT_EQ(results[name].statistics.at("fallback"), 0) << name << "\n" << text;
  if (problem.pipeline.n() <= problem.platform.p()) {
    MapperResult theorem1 = run_mapper("br07.one-to-one", problem, MapperOptions{});
    EXPECT_EQ(h5, theorem1.objective) << "H5 differs from Theorem 1\n" << text;
    EXPECT_EQ(to_text(results["br07.h5-bs121"].mapping, problem.platform), to_text(theorem1.mapping, problem.platform))
        << text;
  }
}

void stress(bool heterogeneous_links, std::uint64_t first_seed, std::uint64_t count)
{
  std::map<std::string, Tally> tally;
  std::map<PlatformClass, std::uint64_t> classes;
  for (std::uint64_t seed = first_seed; seed < first_seed + count; ++seed) {
    Problem problem = random_instance(seed, heterogeneous_links);
    classes[problem.platform.classify()] += 1;
    MapperOptions options;
    options.seed      = seed * 7 + 1;
    MapperResult best = run_mapper("exhaustive.interval", problem, MapperOptions{});
    std::string text  = describe(seed, problem) + fmt::format("\n  {:14} {} period {}", "exhaustive",
                                                              to_text(best.mapping, problem.platform), best.objective);
    ASSERT_EQ(best.status, SolveStatus::optimal) << text;
    auto results = run_all(problem, options, text);
    check_common(problem, options, best, results, text);
    if (br07_links_uniform(problem.platform)) check_uniform(problem, results, text);
    if (::testing::Test::HasFailure()) return; // one printed instance is enough
    for (const std::string& name : heuristics) {
      tally[name].optimal += results[name].objective <= best.objective * (1 + eps) ? 1 : 0;
      tally[name].ratio += results[name].objective / best.objective;
    }
  }
  // The generator gives the class asked for (a Fully Heterogeneous draw with p = 1 may have equal links by chance;
  // Communication Homogeneous draws with equal speeds are Fully Homogeneous).
  if (heterogeneous_links)
    EXPECT_GE(classes[PlatformClass::fully_heterogeneous], count * 9 / 10);
  else
    EXPECT_EQ(classes[PlatformClass::fully_heterogeneous], 0u);
  for (const std::string& name : heuristics) // informational: how often each heuristic is optimal
    fmt::print("{:14} optimal on {:4}/{} instances, mean period/optimum {:.4f}\n", name, tally[name].optimal, count,
               tally[name].ratio / static_cast<double>(count));
}

TEST(Br07Heuristics, RandomizedStressTestCommunicationHomogeneous) { stress(false, 1, 1000); }

TEST(Br07Heuristics, RandomizedStressTestFullyHeterogeneous) { stress(true, 100001, 1000); }

TEST(Br07Heuristics, RegisteredWithCommonRefusals)
{
  Problem problem = make_problem({1, 2}, {1, 1, 1}, make_platform({1, 2}, 1));
  for (const std::string& name : heuristics) {
    auto mapper = MapperRegistry::instance().create(name);
    EXPECT_EQ(mapper->name(), name);
    EXPECT_FALSE(mapper->refuses(problem)) << name;
    Problem multiport = problem;
    multiport.model   = CommModel::multi_port;
    EXPECT_EQ(mapper->refuses(multiport).value_or(""),
              "it accepts the one-port model (br07 eq. (2) is the one-port period), not multi-port");
    Problem reliability        = problem;
    reliability.objective.kind = Objective::Kind::min_failure_probability;
    EXPECT_EQ(mapper->refuses(reliability).value_or(""),
              "it minimises the period (objective minimize: period), not failure_probability");
    Problem empty  = problem;
    empty.platform = make_platform({}, 1);
    EXPECT_EQ(mapper->refuses(empty).value_or(""), "the platform has no processor") << name;
    MapperResult nothing = mapper->map(empty, MapperOptions{}); // called anyway: no mapping, no crash
    EXPECT_EQ(nothing.status, SolveStatus::infeasible) << name;
    EXPECT_TRUE(nothing.mapping.intervals.empty()) << name;
  }
}

} // namespace
} // namespace pipesim
