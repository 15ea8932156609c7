// InputError's fields, their one rendering and their trip through a child process's report.
#include "base/input_error.hpp"
#include "base/subprocess.hpp"

#include <gtest/gtest.h>

namespace pipesim {
namespace {

TEST(InputError, OneRenderingOfTheFields)
{
  EXPECT_STREQ(InputError::at("s.yaml", 12, "platform.processors[2].speed", "-3", "expected a positive number").what(),
               "s.yaml:12: key 'platform.processors[2].speed': value '-3': expected a positive number");
  EXPECT_STREQ(InputError::at("s.yaml", 3, "mapper", "missing key").what(), "s.yaml:3: key 'mapper': missing key");
  EXPECT_STREQ(InputError::at("s.yaml", 0, "", "x", "not a number").what(), "s.yaml: value 'x': not a number");
  EXPECT_STREQ(InputError::in_file("p.xml", 7, "element <include>: removed").what(),
               "p.xml:7: element <include>: removed");
  EXPECT_STREQ(InputError::in_file("dir", 0, "not a campaign directory").what(), "dir: not a campaign directory");
  // a command-line option: the option and its value lead, as the user typed them
  EXPECT_STREQ(InputError::option("--steps", 0, "expected at least 1").what(), "--steps 0: expected at least 1");
  EXPECT_STREQ(InputError::option("--trace", "add --format json").what(), "--trace: add --format json");
  EXPECT_STREQ(InputError::option("PIPESIM_TIME_LIMIT=", "-3", "expected seconds").what(),
               "PIPESIM_TIME_LIMIT=-3: expected seconds"); // a key ending with '=' takes its value as typed
  // not located yet: key and value, a SourceMap gives the place
  InputError e = InputError::keyed("simulation.failures.election", "min-comm", "elects among active replicas only");
  EXPECT_FALSE(e.located());
  EXPECT_STREQ(e.what(), "key 'simulation.failures.election': value 'min-comm': elects among active replicas only");
  e.locate("s.yaml", 9);
  EXPECT_STREQ(e.what(), "s.yaml:9: key 'simulation.failures.election': value 'min-comm': elects among active "
                         "replicas only");
  e.prefix_message("run 3 (seed=1): ");
  EXPECT_EQ(e.message(), "run 3 (seed=1): elects among active replicas only");
  EXPECT_EQ(e.file(), "s.yaml");
  EXPECT_EQ(e.line(), 9);
  EXPECT_EQ(e.key(), "simulation.failures.election");
  EXPECT_EQ(e.value(), "min-comm");
}

TEST(InputError, ValuesOfAnyTypeAreWrittenAsText)
{
  EXPECT_EQ(InputError::keyed("pipeline.w[0]", -1.5, "m").value(), "-1.5");
  EXPECT_EQ(InputError::keyed("simulation.datasets", 1, "m").value(), "1");
  EXPECT_EQ(InputError::keyed("k", std::string("a b"), "m").value(), "a b");
  EXPECT_FALSE(InputError::keyed("k", "m").value().has_value());
}

TEST(InputError, SerializedFieldsComeBackWhole)
{
  for (const InputError& e : {InputError::at("a:b.yaml", 3, "k.x[1]", "v: with colons\nand a newline", "what: 12:34"),
                              InputError::keyed("mapper", "x", ""), InputError::option("--only", "1,2", "m"),
                              InputError::in_file("f", 0, "m")}) {
    InputError back = InputError::deserialize(e.serialize());
    EXPECT_EQ(back.file(), e.file());
    EXPECT_EQ(back.line(), e.line());
    EXPECT_EQ(back.key(), e.key());
    EXPECT_EQ(back.value(), e.value());
    EXPECT_EQ(back.message(), e.message());
    EXPECT_STREQ(back.what(), e.what());
  }
  EXPECT_THROW(InputError::deserialize("not fields"), std::invalid_argument);
  EXPECT_THROW(InputError::deserialize("3:abc"), std::invalid_argument);
}

// A child process's InputError reaches the parent with its fields: the parent can still attach the place of its key.
TEST(InputError, FieldsCrossTheProcessPool)
{
  try {
    run_in_child([]() -> std::string { throw InputError::keyed("simulation.buffer", 0, "expected at least 1"); });
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_FALSE(e.located());
    EXPECT_EQ(e.key(), "simulation.buffer");
    EXPECT_EQ(e.value(), "0");
    EXPECT_EQ(e.message(), "expected at least 1");
  }
  auto outcomes = run_pool(1, {}, [](int) -> std::string { throw InputError::in_file("a.xml", 4, "bad"); });
  ASSERT_EQ(outcomes[0].status, JobStatus::bad_input);
  EXPECT_EQ(outcomes[0].text, "a.xml:4: bad"); // the text stays the message
  ASSERT_TRUE(outcomes[0].error);
  EXPECT_EQ(outcomes[0].error->line(), 4);
}

} // namespace
} // namespace pipesim
