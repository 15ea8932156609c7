// SourceMap: the place of a key in layered sources (a document, a key swept elsewhere, an option, a stand-in).
#include "base/source_map.hpp"

#include <gtest/gtest.h>

namespace pipesim {
namespace {

// Line numbers of the document below, by hand: simulation 1, model 2, failures 3 (a block map: its value starts on 4),
// election 5, mapper 6, mapping 7, its interval 0 on 8, replicas[1] of it on 10.
const char* source_map_doc = "simulation:\n"
                             "  model: one-port\n"
                             "  failures:\n"
                             "    model: probability\n"
                             "    election: min-comm\n"
                             "mapper: greedy\n"
                             "mapping:\n"
                             "  - stages: [1, 2]\n"
                             "    replicas:\n"
                             "      - P1\n"
                             "      - [P2, P3]\n";

InputError placed(const SourceMap& sources, InputError e)
{
  sources.attach(e);
  return e;
}

TEST(SourceMap, AKeyIsAtItsLineOrAtItsNearestWrittenParent)
{
  SourceMap sources;
  sources.add("", load_yaml_text(source_map_doc, "s.yaml"));
  InputError e = placed(sources, InputError::keyed("simulation.failures.election", "elects among active replicas"));
  EXPECT_STREQ(e.what(), "s.yaml:5: key 'simulation.failures.election': value 'min-comm': elects among active "
                         "replicas"); // the value read from the file
  // not written: the line of the nearest parent that is (failures' value starts on line 4)
  EXPECT_EQ(placed(sources, InputError::keyed("simulation.failures.window", "m")).line(), 4);
  EXPECT_EQ(placed(sources, InputError::keyed("simulation.datasets", 1, "m")).line(), 2);
  EXPECT_EQ(placed(sources, InputError::keyed("objective.period_bound", "m")).line(), 1); // the document
  // list items, and a group as its flow text
  InputError group = placed(sources, InputError::keyed("mapping[0].replicas[1]", "data-parallel"));
  EXPECT_EQ(group.line(), 11);
  EXPECT_EQ(group.value(), "[P2, P3]");
  EXPECT_EQ(placed(sources, InputError::keyed("mapping[0].replicas[7]", "m")).line(), 10); // past the list
  // the value the code gives wins over the file's
  EXPECT_EQ(placed(sources, InputError::keyed("simulation.model", "x", "m")).value(), "x");
  // located errors and errors without a key are left alone
  EXPECT_STREQ(placed(sources, InputError::in_file("p.xml", 3, "m")).what(), "p.xml:3: m");
}

// A section the covering source does not write was made by the source of a key under it: a base scenario without
// `pipeline:` whose campaign sweeps `pipeline.w` (line 3 of c.yaml) has an error about `pipeline` at that line, not at
// the base document's first line; a section the base writes stays the base's.
TEST(SourceMap, ASectionNotWrittenIsAtTheSourceOfAKeyUnderIt)
{
  YamlNode campaign = load_yaml_text("name: c\nsweep:\n  pipeline.w: [[1, 2], [3]]\n", "c.yaml");
  SourceMap sources;
  sources.add("", load_yaml_text(source_map_doc, "base.yaml"));
  sources.add("pipeline.w", campaign.at("sweep").at("pipeline.w").items()[1]);
  InputError section = placed(sources, InputError::keyed("pipeline", "w and delta disagree"));
  EXPECT_STREQ(section.what(), "c.yaml:3: key 'pipeline': w and delta disagree");
  EXPECT_EQ(placed(sources, InputError::keyed("pipeline.delta", "m")).file(), "base.yaml"); // a sibling: not made there
  EXPECT_EQ(placed(sources, InputError::keyed("simulation.failures", "m")).file(), "base.yaml"); // written there
  sources.add_option("simulation.failures.election", "--election", "first");
  EXPECT_STREQ(placed(sources, InputError::keyed("simulation.failures", "m")).what(),
               "base.yaml:4: key "
               "'simulation.failures': value '{model: probability, election: min-comm}': m");
}

TEST(SourceMap, TheLongestPrefixWinsThenTheLastLayer)
{
  YamlNode doc = load_yaml_text(source_map_doc, "base.yaml");
  YamlNode campaign =
      load_yaml_text("name: c\nsweep:\n  simulation.failures: [none, {model: trace, crashes: []}]\n", "c.yaml");
  SourceMap sources;
  sources.add("", doc);
  sources.add("simulation.failures", campaign.at("sweep").at("simulation.failures").items()[1]);
  EXPECT_EQ(placed(sources, InputError::keyed("simulation.failures.crashes[0]", "m")).file(), "c.yaml");
  EXPECT_EQ(placed(sources, InputError::keyed("simulation.failures.crashes[0]", "m")).line(), 3);
  EXPECT_EQ(placed(sources, InputError::keyed("simulation.model", "m")).file(), "base.yaml");
  // "simulation.failuresX" is not under "simulation.failures"
  EXPECT_EQ(placed(sources, InputError::keyed("simulation.failuresX", "m")).file(), "base.yaml");
  sources.add_option("simulation.failures", "--failures", "none"); // same prefix, later: wins
  EXPECT_STREQ(placed(sources, InputError::keyed("simulation.failures.model", "m")).what(), "--failures none: m");
}

TEST(SourceMap, OptionsAndStandIns)
{
  SourceMap sources;
  sources.add("", load_yaml_text(source_map_doc, "s.yaml"));
  sources.add_stand_in("mapping", "mapper");
  // the mapping a mapper returns: shown at the mapper's key, the key it was about leading the message
  EXPECT_STREQ(placed(sources, InputError::keyed("mapping[1].replicas[0]", "P4", "data-parallel groups")).what(),
               "s.yaml:6: key 'mapper': value 'greedy': its mapping[1].replicas[0]: value 'P4': data-parallel groups");
  sources.add_option("mapper", "--mapper", "hedpm");
  EXPECT_STREQ(placed(sources, InputError::keyed("mapper", "x", "cannot handle this problem")).what(),
               "--mapper hedpm: cannot handle this problem");
  EXPECT_STREQ(placed(sources, InputError::keyed("mapping", "general")).what(), "--mapper hedpm: its mapping: general");
  SourceMap xml;
  xml.add_file("platform", "p.xml");
  EXPECT_STREQ(placed(xml, InputError::keyed("platform.io.in", "io", "no such host")).what(),
               "p.xml: key 'platform.io.in': value 'io': no such host");
  EXPECT_FALSE(placed(xml, InputError::keyed("mapper", "x", "m")).located()); // no layer covers it
}

// A document made from the sources (a campaign run's scenario text): its errors move to the sources' places.
TEST(SourceMap, RelocateMovesTheErrorsOfADerivedDocument)
{
  SourceMap sources;
  sources.add("", load_yaml_text(source_map_doc, "base.yaml"));
  InputError in_run = InputError::at("c.yaml (run 2)", 40, "mapper", "x", "unknown mapper");
  sources.relocate(in_run, "c.yaml (run 2)");
  EXPECT_STREQ(in_run.what(), "base.yaml:6: key 'mapper': value 'x': unknown mapper");
  InputError no_key = InputError::in_file("c.yaml (run 2)", 4, "a scenario is a mapping of keys");
  sources.relocate(no_key, "c.yaml (run 2)");
  EXPECT_EQ(no_key.file(), "base.yaml");
  EXPECT_EQ(no_key.line(), 1);
  InputError elsewhere = InputError::in_file("samples.txt", 4, "not a number");
  sources.relocate(elsewhere, "c.yaml (run 2)");
  EXPECT_EQ(elsewhere.file(), "samples.txt");
}

TEST(SourceMap, WithSourcesAttachesToWhatLeaves)
{
  SourceMap sources;
  sources.add("", load_yaml_text(source_map_doc, "s.yaml"));
  try {
    with_sources(sources, [] { throw InputError::keyed("simulation.model", "refused"); });
    FAIL();
  } catch (const InputError& e) {
    EXPECT_STREQ(e.what(), "s.yaml:2: key 'simulation.model': value 'one-port': refused");
  }
  EXPECT_EQ(with_sources(sources, [] { return 7; }), 7);
}

} // namespace
} // namespace pipesim
