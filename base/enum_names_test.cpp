// Tests of the enum name tables: printing, parsing, lists and messages, fmt and stream output, YAML reading.
#include "base/enum_names.hpp"

#include "base/input_error.hpp"
#include "base/yaml_node.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sstream>

namespace pipesim {
namespace {

enum class Colour { red, dark_green, blue };
PIPESIM_ENUM_NAMES(Colour, {red, "red"}, {dark_green, "dark-green"}, {blue, "light blue"});

enum class Side { left, right };
PIPESIM_ENUM_NAMES(Side, {left, "left"}, {right, "right"});

struct Holder {
  enum class Kind { first, second };
};
PIPESIM_ENUM_NAMES(Holder::Kind, {first, "first"}, {second, "second"});

// The checks of the macro, on lists it must refuse (each would be a compile error in PIPESIM_ENUM_NAMES).
constexpr bool well_formed(std::initializer_list<EnumName<Colour>> list)
{
  std::array<EnumName<Colour>, 3> names{};
  std::size_t i = 0;
  for (const auto& entry : list)
    names[i++] = entry;
  return i == 3 && detail::enum_names_well_formed(names);
}
static_assert(well_formed({{Colour::red, "r"}, {Colour::dark_green, "g"}, {Colour::blue, "b"}}));
static_assert(!well_formed({{Colour::dark_green, "g"}, {Colour::red, "r"}, {Colour::blue, "b"}})); // order
static_assert(!well_formed({{Colour::red, "r"}, {Colour::red, "g"}, {Colour::blue, "b"}}));        // repeated value
static_assert(!well_formed({{Colour::red, "r"}, {Colour::dark_green, "r"}, {Colour::blue, "b"}})); // repeated name
static_assert(!well_formed({{Colour::red, "r"}, {Colour::dark_green, ""}, {Colour::blue, "b"}}));  // empty name

// Names and parsing are constant expressions.
static_assert(std::string_view(to_string(Colour::dark_green)) == "dark-green");
static_assert(from_string<Colour>("light blue") == Colour::blue);
static_assert(!NamedEnum<int>);

TEST(EnumNames, PrintsEachName)
{
  EXPECT_STREQ(to_string(Colour::red), "red");
  EXPECT_STREQ(to_string(Colour::dark_green), "dark-green");
  EXPECT_STREQ(to_string(Colour::blue), "light blue");
  EXPECT_STREQ(to_string(Holder::Kind::second), "second");
  EXPECT_STREQ(to_string(static_cast<Colour>(7)), "?");
}

TEST(EnumNames, ParsesExactNamesOnly)
{
  EXPECT_EQ(from_string<Colour>("red"), Colour::red);
  EXPECT_EQ(from_string<Colour>("dark-green"), Colour::dark_green);
  EXPECT_EQ(from_string<Colour>("light blue"), Colour::blue);
  EXPECT_EQ(from_string<Colour>("dark_green"), std::nullopt); // the enumerator is not its name
  EXPECT_EQ(from_string<Colour>("Red"), std::nullopt);
  EXPECT_EQ(from_string<Colour>("red "), std::nullopt);
  EXPECT_EQ(from_string<Colour>(""), std::nullopt);
  for (Colour c : enum_values<Colour>())
    EXPECT_EQ(from_string<Colour>(to_string(c)), c);
}

TEST(EnumNames, ParseEnumNamesWhatItRefuses)
{
  EXPECT_EQ(parse_enum<Colour>("light blue", "colour"), Colour::blue);
  try {
    (void)parse_enum<Side>("up", "side");
    ADD_FAILURE() << "no error";
  } catch (const InputError& e) {
    EXPECT_STREQ(e.what(), "key 'side': value 'up': unknown side (expected one of: left, right)");
  }
}

TEST(EnumNames, ListsAndMessages)
{
  EXPECT_THAT(enum_values<Colour>(), testing::ElementsAre(Colour::red, Colour::dark_green, Colour::blue));
  EXPECT_THAT(enum_names<Colour>(), testing::ElementsAre("red", "dark-green", "light blue"));
  EXPECT_EQ(enum_name_list<Colour>(), "red, dark-green, light blue");
  EXPECT_EQ(expected_one_of<Colour>(), "expected one of: red, dark-green, light blue");
  EXPECT_EQ(expected_names<Colour>(), "expected red, dark-green or light blue");
  EXPECT_EQ(expected_names<Side>(), "expected left or right");
  EXPECT_EQ(enum_alternatives<Colour>(), "red, dark-green or light blue");
}

TEST(EnumNames, FormatsAndStreamsTheName)
{
  EXPECT_EQ(fmt::format("{}|{:>6}|{:<6}|", Colour::red, Side::left, Side::right), "red|  left|right |");
  std::ostringstream out;
  out << Colour::dark_green << " " << Holder::Kind::first;
  EXPECT_EQ(out.str(), "dark-green first");
  EXPECT_EQ(testing::PrintToString(Colour::blue), "light blue");
}

TEST(EnumNames, YamlScalarsNameAnEnumerator)
{
  YamlNode root = load_yaml_text("colour: dark-green\nside: up\nshade: pink\n", "test.yaml");
  EXPECT_EQ(root.at("colour").as_enum<Colour>(), Colour::dark_green);
  try {
    (void)root.at("side").as_enum<Side>();
    ADD_FAILURE() << "no error";
  } catch (const InputError& e) {
    EXPECT_STREQ(e.what(), "test.yaml:2: key 'side': value 'up': expected left or right");
  }
  try {
    (void)root.at("shade").as_enum<Colour>("colour");
    ADD_FAILURE() << "no error";
  } catch (const InputError& e) {
    EXPECT_STREQ(
        e.what(),
        "test.yaml:3: key 'shade': value 'pink': unknown colour (expected one of: red, dark-green, light blue)");
  }
}

} // namespace
} // namespace pipesim
