// Tests of the mapper registry: stable names, unknown names, duplicates, metadata (what every mapper says it is, the
// refusals decided from it, the listing), test-only mappers kept out, run_mapper's checks and timing.
#include "mappers/mapper.hpp"

#include "base/input_error.hpp"
#include "mappers/debug/debug_mappers_fixtures.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <set>
#include <stdexcept>

namespace pipesim {
namespace {

class NullMapper : public Mapper {
public:
  explicit NullMapper(MapperInfo info) : info_(std::move(info)) {}
  MapperInfo info() const override { return info_; }
  MapperResult map(const Problem&, const MapperOptions&) const override { return {}; }

private:
  MapperInfo info_;
};

/// Metadata with a name and the defaults (objective period, every model and platform class).
MapperInfo named(const std::string& name)
{
  MapperInfo info;
  info.name        = name;
  info.description = "does nothing";
  return info;
}

MapperFactory null_factory(const std::string& name)
{
  return [name] { return std::make_unique<NullMapper>(named(name)); };
}

/// n = 1 (w = 1, no data) on processors of `speeds`, every link of bandwidth 1 (P1 -> P2: 2 when `links_differ`).
Problem problem_on(const std::vector<double>& speeds, bool links_differ = false)
{
  Problem problem;
  problem.pipeline = Pipeline{{1}, {0, 0}};
  std::vector<Processor> processors;
  for (double s : speeds) {
    Processor p;
    p.name  = fmt::format("P{}", processors.size() + 1);
    p.speed = s;
    processors.push_back(p);
  }
  problem.platform = Platform(processors, "in", "out");
  if (links_differ) problem.platform.set_link(0, 1, 2.0, 0.0);
  return problem;
}

TEST(MapperRegistry, KnowsTheMappersOfThisFolder)
{
  auto names = MapperRegistry::instance().names();
  for (const char* name : {"explicit", "br07.one-to-one", "exhaustive.interval"})
    EXPECT_NE(std::find(names.begin(), names.end(), name), names.end()) << name;
  EXPECT_TRUE(std::is_sorted(names.begin(), names.end()));
  EXPECT_EQ(MapperRegistry::instance().create("br07.one-to-one")->name(), "br07.one-to-one");
}

TEST(MapperRegistry, UnknownNameListsTheKnownOnes)
{
  MapperRegistry registry;
  registry.add(null_factory("b"));
  registry.add(null_factory("a"));
  registry.add(null_factory("c"));
  for (auto call : {+[](const MapperRegistry& r) { r.create("x"); }, +[](const MapperRegistry& r) { r.info("x"); }})
    try {
      call(registry);
      FAIL() << "no exception";
    } catch (const InputError& e) {
      EXPECT_STREQ(e.what(), "key 'mapper': value 'x': unknown mapper (known: a, b, c)");
    }
  EXPECT_EQ(registry.find("x"), nullptr);
  // The global registry says the same through run_mapper.
  try {
    run_mapper("no-such-mapper", Problem{}, MapperOptions{});
    FAIL() << "no exception";
  } catch (const InputError& e) {
    std::string message = e.what();
    EXPECT_EQ(message.rfind("key 'mapper': value 'no-such-mapper': unknown mapper (known: ", 0), 0u) << message;
    EXPECT_NE(message.find("br07.one-to-one"), std::string::npos) << message;
    EXPECT_NE(message.find("explicit"), std::string::npos) << message;
  }
}

TEST(MapperRegistry, RejectsDuplicates)
{
  MapperRegistry registry;
  registry.add(null_factory("a"));
  EXPECT_THROW(registry.add(null_factory("a")), std::logic_error);
  EXPECT_THROW(registry.add(MapperFactory{}), std::logic_error);
  EXPECT_THROW(MapperRegistry::instance().add(null_factory("explicit")), std::logic_error);
  EXPECT_EQ(registry.names(), std::vector<std::string>{"a"});
}

TEST(MapperRegistry, ReplaceTakesTheNewMetadataOfATakenName)
{
  MapperRegistry registry;
  registry.add(null_factory("a"));
  registry.replace([] {
    MapperInfo info  = named("a");
    info.description = "defined again";
    info.paper       = Paper::python;
    return std::make_unique<NullMapper>(info);
  });
  EXPECT_EQ(registry.info("a").description, "defined again");
  EXPECT_EQ(registry.info("a").paper, Paper::python);
  EXPECT_EQ(registry.create("a")->info().description, "defined again");
  EXPECT_EQ(registry.names(), std::vector<std::string>{"a"});
  EXPECT_THROW(registry.replace(null_factory("b")), std::logic_error); // not taken: add() registers new names
  EXPECT_THROW(registry.replace(MapperFactory{}), std::logic_error);
}

TEST(MapperRegistry, EveryMapperSaysWhatItIsWithADescriptionOfItsOwn)
{
  const MapperRegistry& registry = MapperRegistry::instance();
  std::set<std::string> descriptions;
  for (const std::string& name : registry.names()) {
    const MapperInfo& info = registry.info(name);
    EXPECT_EQ(info.name, name);
    EXPECT_EQ(registry.create(name)->info().description, info.description) << name;
    EXPECT_TRUE(descriptions.insert(info.description).second)
        << name << " shares its description: " << info.description;
    EXPECT_FALSE(info.description.empty()) << name;
    EXPECT_FALSE(info.complexity.empty()) << name;
    EXPECT_FALSE(info.models.empty()) << name;
    EXPECT_FALSE(info.platform_classes.empty()) << name;
    EXPECT_NE(info.family, MapperFamily::testing) << name << ": a test-only mapper in the user-facing registry";
    nlohmann::json j = to_json(info);
    for (const char* key : {"paper", "family", "objective", "models", "exact", "complexity"})
      EXPECT_TRUE(j.contains(key)) << name << " " << key;
  }
  EXPECT_GE(descriptions.size(), 70u); // 44 bbr10 heuristics among them
}

TEST(MapperRegistry, KnowsPaperFamilyAndExactnessOfSomeMappers)
{
  const MapperRegistry& registry = MapperRegistry::instance();
  const MapperInfo& bsc          = registry.info("br07.h7b-bsc");
  EXPECT_EQ(bsc.paper, Paper::br07);
  EXPECT_EQ(bsc.family, MapperFamily::heuristic);
  EXPECT_FALSE(bsc.exact);
  const MapperInfo& exact = registry.info("exact.interval");
  EXPECT_EQ(exact.paper, Paper::pipesim);
  EXPECT_EQ(exact.family, MapperFamily::period_search);
  EXPECT_TRUE(exact.exact);
  EXPECT_EQ(exact.models, std::vector<CommModel>{CommModel::one_port});
  const MapperInfo& scan = registry.info("hedpm.scan");
  EXPECT_EQ(scan.paper, Paper::hedpm);
  EXPECT_EQ(scan.objective, MapperObjective::production_time);
  const MapperInfo& dp = registry.info("sv95.dp-maximal");
  EXPECT_EQ(dp.input, MapperInput::task_chain);
  EXPECT_EQ(dp.platform_classes, std::vector<PlatformClass>{PlatformClass::fully_homogeneous});
  EXPECT_FALSE(dp.exact); // §3.2's maximal replication is not always optimal (docs/sv95.md)
  const MapperInfo& interval = registry.info("bbr10.partstw-snake-c.interval");
  EXPECT_EQ(interval.objective, MapperObjective::failure_probability);
  EXPECT_EQ(interval.mapping, MappingRule::interval);
  EXPECT_EQ(registry.info("bbr10.partstw-snake-c").mapping, MappingRule::general);
}

TEST(MapperRegistry, Bbr10HeuristicsRankInTable2Order)
{
  // Table 2: Small, Snake-c, Snake-w, BCT-c, BCT-w, Bal-c, Bal-w, each for PartStc, PartStr, PartStw; the interval
  // variants first, then the general ones, then PartPrc and PartPrw.
  std::vector<std::string> heuristics;
  for (const MapperInfo& info : MapperRegistry::instance().infos())
    if (info.paper == Paper::bbr10 && info.family == MapperFamily::heuristic) heuristics.push_back(info.name);
  ASSERT_EQ(heuristics.size(), 44u);
  std::vector<std::string> first(heuristics.begin(), heuristics.begin() + 4);
  EXPECT_EQ(first, (std::vector<std::string>{"bbr10.partstc-small.interval", "bbr10.partstr-small.interval",
                                             "bbr10.partstw-small.interval", "bbr10.partstc-snake-c.interval"}));
  EXPECT_EQ(heuristics[20], "bbr10.partstw-bal-w.interval");
  EXPECT_EQ(heuristics[21], "bbr10.partstc-small");
  EXPECT_EQ(heuristics[41], "bbr10.partstw-bal-w");
  EXPECT_EQ(heuristics[42], "bbr10.partprc");
  EXPECT_EQ(heuristics[43], "bbr10.partprw");
}

TEST(MapperRegistry, RefusalsComeFromTheMetadataWithOneMessagePerCause)
{
  MapperInfo info       = named("m");
  info.objective        = MapperObjective::production_time;
  info.models           = {CommModel::one_port};
  info.platform_classes = {PlatformClass::fully_homogeneous, PlatformClass::communication_homogeneous};
  info.restriction      = "the reason";
  NullMapper mapper(info);
  Problem ok = problem_on({1, 2});
  EXPECT_EQ(mapper.refuses(ok), std::nullopt);
  Problem f         = ok;
  f.objective       = {Objective::Kind::min_failure_probability, 1.0};
  Problem multiport = ok;
  multiport.model   = CommModel::multi_port;
  Problem hetero    = problem_on({1, 2}, true);
  Problem empty     = problem_on({});
  EXPECT_EQ(mapper.refuses(f), "it minimises HeDPM's production time (objective minimize: period), not "
                               "failure_probability");
  EXPECT_EQ(mapper.refuses(multiport), "it accepts the one-port model (the reason), not multi-port");
  EXPECT_EQ(mapper.refuses(hetero), "the platform is fully-heterogeneous; it accepts fully-homogeneous or "
                                    "communication-homogeneous platforms (the reason)");
  EXPECT_EQ(mapper.refuses(empty), "the platform has no processor");

  MapperInfo reliability = named("r");
  reliability.objective  = MapperObjective::failure_probability;
  NullMapper r(reliability);
  EXPECT_EQ(r.refuses(f), std::nullopt);
  EXPECT_EQ(r.refuses(ok), "it minimises the failure probability F under a period bound (objective minimize: "
                           "failure_probability, period_bound: P_max), not period");
  f.objective.period_bound = 0;
  EXPECT_EQ(r.refuses(f), "it minimises the failure probability F under a period bound: period_bound 0 is not a "
                          "period > 0");
  MapperInfo chain_info = named("c");
  chain_info.input      = MapperInput::task_chain;
  NullMapper chain(chain_info);
  EXPECT_EQ(chain.refuses(ok), "the problem has no task chain (sv95's cost model): give `task_chain:` in the scenario");
  MapperInfo sampler_info = named("s");
  sampler_info.objective  = MapperObjective::none;
  NullMapper sampler(sampler_info);
  EXPECT_EQ(sampler.refuses(f), "it draws mappings for the objective minimize: period only, not failure_probability");
  MapperInfo given_info = named("g");
  given_info.objective  = MapperObjective::scenario;
  NullMapper given(given_info);
  EXPECT_EQ(given.refuses(f), std::nullopt);
  EXPECT_EQ(given.refuses(ok), std::nullopt);

  // Registered mappers say it the same way, with their own restriction: br07's exact family, for instance.
  for (const char* name : {"br07.fh-dp", "br07.ilp", "exact.interval", "exhaustive.interval"}) {
    auto registered = MapperRegistry::instance().create(name);
    EXPECT_EQ(
        registered->refuses(f).value_or("").rfind("it minimises the period (objective minimize: period), not ", 0), 0u)
        << name;
    EXPECT_EQ(registered->refuses(multiport).value_or("").rfind("it accepts the one-port model (", 0), 0u) << name;
    EXPECT_EQ(registered->refuses(empty), "the platform has no processor") << name;
  }
}

TEST(MapperRegistry, TestOnlyMappersAreRegisteredOnlyOnDemand)
{
  MapperRegistry& registry = MapperRegistry::instance();
  EXPECT_EQ(registry.find("debug.abort"), nullptr);
  EXPECT_EQ(registry.find("debug.sleep"), nullptr);
  EXPECT_THROW(registry.create("debug.sleep"), InputError);
  register_debug_mappers();
  register_debug_mappers(); // twice: nothing more
  ASSERT_NE(registry.find("debug.sleep"), nullptr);
  EXPECT_EQ(registry.info("debug.abort").family, MapperFamily::testing);
  Problem problem = problem_on({1});
  MapperOptions options;
  options.time_limit  = 0.001;
  MapperResult result = run_mapper("debug.sleep", problem, options);
  EXPECT_EQ(result.objective, 1.0); // w_1 / s_1
}

TEST(MapperRegistry, ListingGroupsByPaperAndFamily)
{
  std::vector<MapperInfo> infos{named("x.b"), named("x.a"), named("x.c")};
  infos[0].description      = "B";
  infos[0].paper            = Paper::br07;
  infos[0].complexity       = "O(1)";
  infos[1].description      = "A";
  infos[1].paper            = Paper::br07;
  infos[1].family           = MapperFamily::exhaustive;
  infos[1].models           = {CommModel::one_port};
  infos[1].exact            = true;
  infos[1].complexity       = "O(2^n)";
  infos[2].description      = "C";
  infos[2].paper            = Paper::sv95;
  infos[2].platform_classes = {PlatformClass::fully_homogeneous};
  infos[2].input            = MapperInput::task_chain;
  infos[2].complexity       = "O(k)";
  std::ranges::sort(infos, listed_before);
  EXPECT_EQ(mapper_listing(infos),
            std::string("br07: ") + paper_title(Paper::br07) +
                "\n"
                "  heuristic\n"
                "    x.b  B\n"
                "      objective period; one-port or multi-port; every platform class; interval mappings; not exact; "
                "O(1)\n"
                "  exhaustive\n"
                "    x.a  A\n"
                "      objective period; one-port; every platform class; interval mappings; exact; O(2^n)\n"
                "\n"
                "sv95: " +
                paper_title(Paper::sv95) +
                "\n"
                "  heuristic\n"
                "    x.c  C\n"
                "      objective period; one-port or multi-port; fully-homogeneous platforms; needs the scenario's "
                "task chain; "
                "interval mappings; not exact; O(k)\n");
}

TEST(MapperRegistry, RunMapperRefusesWithTheMappersReasonAndTimesTheRun)
{
  Problem problem = problem_on({1});
  try {
    run_mapper("explicit", problem, MapperOptions{});
    FAIL() << "no exception";
  } catch (const InputError& e) {
    EXPECT_STREQ(e.what(), "key 'mapping': mapper 'explicit' cannot handle this problem: the problem has no "
                           "explicit mapping "
                           "(give one in the scenario)");
  }
  EXPECT_EQ(mapper_refusal("explicit", problem), "mapper 'explicit' cannot handle this problem: the problem has no "
                                                 "explicit mapping (give one in the scenario)");
  EXPECT_EQ(mapper_refusal("br07.one-to-one", problem), std::nullopt);
  MapperResult result = run_mapper("br07.one-to-one", problem, MapperOptions{});
  ASSERT_EQ(result.statistics.count("seconds"), 1u);
  EXPECT_GE(result.statistics.at("seconds"), 0.0);
  EXPECT_EQ(result.status, SolveStatus::optimal);
  EXPECT_EQ(result.objective, 1.0); // w_1 / s_1 = 1, no data
}

TEST(MapperRegistry, DeadlineCountsFromWhenTheRunTakesIt)
{
  MapperOptions options;
  options.time_limit = 0;
  EXPECT_TRUE(options.deadline().expired()); // a limit of 0 s is over at once
  options.time_limit = 3600;
  Deadline deadline  = options.deadline();
  EXPECT_FALSE(deadline.expired());
  EXPECT_EQ(deadline.seconds(), 3600.0);
  EXPECT_GE(deadline.elapsed(), 0.0);
}

TEST(MapperRegistry, Names)
{
  EXPECT_STREQ(to_string(CommModel::one_port), "one-port");
  EXPECT_STREQ(to_string(CommModel::multi_port), "multi-port");
  EXPECT_STREQ(to_string(SolveStatus::optimal), "optimal");
  EXPECT_STREQ(to_string(SolveStatus::feasible), "feasible");
  EXPECT_STREQ(to_string(SolveStatus::infeasible), "infeasible");
  EXPECT_STREQ(to_string(SolveStatus::time_limit), "time limit");
  EXPECT_STREQ(to_string(Paper::bbr10), "bbr10");
  EXPECT_STREQ(to_string(MapperFamily::period_search), "period-search");
  EXPECT_STREQ(to_string(MapperObjective::failure_probability), "failure-probability");
}

} // namespace
} // namespace pipesim
