// Tests of parse_range: every YAML shape of a generator range, and its error messages.
#include "base/yaml_range.hpp"

#include "base/input_error.hpp"

#include <gtest/gtest.h>

namespace pipesim {
namespace {

Range parse(const std::string& text, bool positive = true)
{
  return parse_range(load_yaml_text("r: " + text + "\n", "test.yaml").at("r"), positive);
}

std::string range_error_of(const std::string& text, bool positive = true)
{
  try {
    parse(text, positive);
  } catch (const InputError& e) {
    return e.what();
  }
  return "no error";
}

void expect_error(const std::string& text, std::initializer_list<const char*> fragments)
{
  std::string message = range_error_of(text);
  EXPECT_EQ(message.rfind("test.yaml:1: ", 0), 0u) << message;
  for (const char* fragment : fragments)
    EXPECT_NE(message.find(fragment), std::string::npos) << "'" << fragment << "' not in: " << message;
}

TEST(YamlRange, ExistingShapes)
{
  EXPECT_EQ(parse("10"), Range::fixed(10));
  EXPECT_EQ(parse("[1, 20]"), Range::uniform(1, 20));
  EXPECT_EQ(parse("{min: 1, max: 20, integer: true}"), Range::uniform(1, 20, true));
  EXPECT_EQ(parse("{min: 1, max: 20}"), Range::uniform(1, 20));
  EXPECT_EQ(parse("0", false), Range::fixed(0));
}

TEST(YamlRange, NormalShapes)
{
  EXPECT_EQ(parse("{normal: {mean: 10, sd: 5}}"), Range::normal(10, 5));
  EXPECT_EQ(parse("{normal: {mean: 10, sd: 5}, integer: true}"), Range::normal(10, 5, true));
  EXPECT_EQ(parse("{normal: {mean: 1, sd: 0.5}}", false), Range::normal(1, 0.5)); // same for >= 0 quantities
  EXPECT_EQ(parse("{normal: {mean: 3, sd: 0}}"), Range::normal(3, 0));
}

TEST(YamlRange, NormalErrors)
{
  expect_error("{normal: {mean: -1, sd: 5}}", {"key 'r.normal.mean'", "value '-1'"});
  expect_error("{normal: {mean: 0, sd: 5}}", {"key 'r.normal.mean'", "value '0'"});
  expect_error("{normal: {mean: 10, sd: -5}}", {"key 'r.normal.sd'", "value '-5'"});
  expect_error("{normal: {mean: 10}}", {"key 'r.normal.sd': missing"});
  expect_error("{normal: {mean: 10, sd: 1, var: 2}}", {"key 'r.normal.var'"});
  expect_error("{normal: [10, 5]}", {"key 'r.normal'", "{mean: m, sd: s}"});
  expect_error("{normal: {mean: 10, sd: 5}, min: 1}", {"key 'r.min'", "not both"});
  expect_error("{normal: {mean: 0.5, sd: 1}, integer: true}", {"key 'r.normal.mean'", "value '0.5'", ">= 1"});
  expect_error("{mean: 10, sd: 5}", {"key 'r.mean'"});
  expect_error("[1, 2, 3]", {"key 'r'", "normal: {mean: m, sd: s}"});
  expect_error("[3, 1]", {"key 'r'", "lower bound exceeds"});
}

} // namespace
} // namespace pipesim
