// The table type: alignment, the escaping rule of each format, and the one policy for infinities and NaN.
#include "base/table.hpp"

#include <gtest/gtest.h>
#include <limits>

using namespace pipesim;

namespace {
constexpr double inf          = std::numeric_limits<double>::infinity();
constexpr double not_a_number = std::numeric_limits<double>::quiet_NaN();

Table figures()
{
  Table t;
  t.add_column("figure", Align::left, 8).add_column("value", Align::right, 6, 3).add_column("note");
  t.add_row({"period", format_number(7.0, ".10g"), "eq. 2"});
  t.add_row({"F", format_number(0.125, ".3f")}); // no note: empty cell, no trailing spaces
  return t;
}
} // namespace

TEST(Table, NumbersFollowTheSpecAndOnePolicyForNonFinite)
{
  EXPECT_EQ(format_number(1.0 / 3, ".10g"), "0.3333333333");
  EXPECT_EQ(format_number(12.5, "+.1f"), "+12.5");
  EXPECT_EQ(format_number(inf, ".10g"), "inf");
  EXPECT_EQ(format_number(-inf, ".3f"), "-inf");
  EXPECT_EQ(format_number(not_a_number, ".6g"), "nan");
  EXPECT_EQ(format_number(-not_a_number, ".6G"), "nan"); // neither "-nan" nor "NAN"
  EXPECT_EQ(format_number(inf, "E"), "inf");
  EXPECT_EQ(format_number(std::optional<double>(), ".6g", "-"), "-");
  EXPECT_EQ(format_number(std::optional<double>(2.5), ".6g", "-"), "2.5");
}

TEST(Table, TextAlignsColumnsToTheirWidestCell)
{
  // widths: figure max(8, 6, 6) = 8; value max(6, 5, 5) = 6 after a gap of 3; note 5
  EXPECT_EQ(figures().text(2), "  figure      value note\n"
                               "  period          7 eq. 2\n"
                               "  F           0.125\n");
  Table t;
  t.add_column("x").add_column("y", Align::right);
  t.add_row({"a much longer cell", "1"}).add_row({"b", format_number(1e6, ".10g")});
  EXPECT_EQ(t.text(), "x                        y\n"
                      "a much longer cell       1\n"
                      "b                  1000000\n");
}

TEST(Table, TextCountsCharactersNotBytesAndFlattensLineBreaks)
{
  Table t;
  t.add_column("a").add_column("b");
  t.add_row({"≤ 2", "x"}).add_row({"two\nlines", "y"});
  EXPECT_EQ(t.text(), "a         b\n"
                      "≤ 2       x\n"
                      "two lines y\n");
}

TEST(Table, CsvQuotesCommaQuoteAndLineBreakOnly)
{
  EXPECT_EQ(csv_field("plain text; with: punctuation"), "plain text; with: punctuation");
  EXPECT_EQ(csv_field("a,b"), "\"a,b\"");
  EXPECT_EQ(csv_field("say \"hi\""), "\"say \"\"hi\"\"\"");
  EXPECT_EQ(csv_field("two\nlines"), "\"two\nlines\"");
  EXPECT_EQ(csv_field("cr\r"), "\"cr\r\"");
  EXPECT_EQ(csv_field(""), "");
  EXPECT_EQ(csv_line({"a", "b,c", ""}), "a,\"b,c\",");
  Table t;
  t.add_column("name").add_column("value", Align::right);
  t.add_row({"x, \"y\"", format_number(inf, ".17g")}).add_row({"z", format_number(not_a_number, ".17g")});
  t.add_row({"w", format_number(-inf, ".17g")});
  EXPECT_EQ(t.csv(), "name,value\n\"x, \"\"y\"\"\",inf\nz,nan\nw,-inf\n");
}

TEST(Table, MarkdownEscapesPipesAndLineBreaks)
{
  Table t;
  t.add_column("a").add_column("b", Align::right);
  t.add_row({"x | y", format_number(inf, ".3f")}).add_row({"two\nlines", format_number(not_a_number, ".3f")});
  t.add_row({"", format_number(0.5, ".3f")});
  EXPECT_EQ(t.markdown(), "| a | b |\n"
                          "|---|---:|\n"
                          "| x \\| y | inf |\n"
                          "| two<br>lines | nan |\n"
                          "|  | 0.500 |\n");
}

TEST(Table, RenderPicksTheFormat)
{
  Table t = figures();
  EXPECT_EQ(t.render(TableFormat::text, 2), t.text(2));
  EXPECT_EQ(t.render(TableFormat::markdown), t.markdown());
  EXPECT_EQ(t.render(TableFormat::csv), "figure,value,note\nperiod,7,eq. 2\nF,0.125,\n");
  EXPECT_EQ(to_string(TableFormat::markdown), "markdown");
}
