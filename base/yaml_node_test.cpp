#include "base/input_error.hpp"
#include "base/yaml_node.hpp"

#include <gtest/gtest.h>
#include <string>

namespace pipesim {
namespace {

std::string error_of(const std::string& text)
{
  try {
    load_yaml_text(text, "dup.yaml");
  } catch (const InputError& e) {
    return e.what();
  }
  return "no error";
}

TEST(YamlNode, DuplicateKeyNamesFileLineAndKey)
{
  EXPECT_EQ(error_of("name: a\nmapper: x\nname: b\n"), "dup.yaml:3: key 'name': duplicate key (first given at line 1)");
  EXPECT_EQ(error_of("platform:\n  bandwidth: 1\n  io: {in: a}\n  bandwidth: 2\n"),
            "dup.yaml:4: key 'platform.bandwidth': duplicate key (first given at line 2)");
  EXPECT_EQ(error_of("mapping:\n  - stages: 1\n    replicas: [P1]\n  - {stages: 2, replicas: [P2], stages: 3}\n"),
            "dup.yaml:4: key 'mapping[1].stages': duplicate key (first given at line 4)");
}

TEST(YamlNode, DistinctKeysAndSharedAliasesAreFine)
{
  auto root = load_yaml_text("a: &x {p: 1, q: [1, 2]}\nb: *x\nc: {p: 1}\n", "ok.yaml");
  EXPECT_EQ(root.at("b").at("q").items().size(), 2u);
  EXPECT_EQ(root.at("c").at("p").as_double(), 1.0);
}

TEST(YamlNode, KeyThatIsNotAStringIsAnError)
{
  EXPECT_EQ(error_of("? [a, b]\n: 1\n"), "dup.yaml:1: a key must be a string, not '[a, b]'");
  EXPECT_EQ(error_of("x: {~: 1}\n"), "dup.yaml:1: key 'x': a key must be a string, not 'null'");
}

TEST(YamlNode, AliasInsideItsOwnAnchorIsAnError)
{
  EXPECT_EQ(error_of("a: &x [1, *x]\n"), "dup.yaml:1: key 'a[1]': an alias refers to the collection that contains it");
}

TEST(YamlNode, AliasExpansionIsBounded)
{
  // Ten levels of ten aliases each: 10^10 nodes once expanded, from a text of ~400 characters.
  std::string text = "l0: &l0 [x, x, x, x, x, x, x, x, x, x]\n";
  for (int i = 1; i < 10; ++i) {
    const std::string previous = "*l" + std::to_string(i - 1);
    text += "l" + std::to_string(i) + ": &l" + std::to_string(i) + " [" + previous;
    for (int k = 1; k < 10; ++k)
      text += ", " + previous;
    text += "]\n";
  }
  const std::string message = error_of(text);
  EXPECT_NE(message.find("dup.yaml:"), std::string::npos) << message;
  EXPECT_NE(message.find("YAML aliases expand this document beyond"), std::string::npos) << message;
}

} // namespace
} // namespace pipesim
