// The markup escape: each special character, the one difference between XML and HTML, everything else untouched.
#include "base/markup_escape.hpp"

#include <gtest/gtest.h>

using namespace pipesim;

TEST(MarkupEscape, EachSpecialCharacterBecomesItsEntity)
{
  for (Markup markup : {Markup::xml, Markup::html}) {
    SCOPED_TRACE(to_string(markup));
    EXPECT_EQ(escape_markup("&", markup), "&amp;");
    EXPECT_EQ(escape_markup("<", markup), "&lt;");
    EXPECT_EQ(escape_markup(">", markup), "&gt;");
    EXPECT_EQ(escape_markup("\"", markup), "&quot;");
  }
  EXPECT_EQ(escape_markup("'", Markup::xml), "&apos;"); // XML 1.0's predefined entity
  EXPECT_EQ(escape_markup("'", Markup::html), "&#39;"); // HTML 4 has no &apos;
}

TEST(MarkupEscape, OtherBytesAreCopiedAndEntitiesAreNotReadAsEscaped)
{
  EXPECT_EQ(escape_markup("", Markup::xml), "");
  EXPECT_EQ(escape_markup("P1 -> P2", Markup::xml), "P1 -&gt; P2");
  // An entity in the input is text: its & is escaped again, so the reader gets back the input.
  EXPECT_EQ(escape_markup("a&amp;b", Markup::html), "a&amp;amp;b");
  EXPECT_EQ(escape_markup("<a href='x' title=\"y\">", Markup::html), "&lt;a href=&#39;x&#39; title=&quot;y&quot;&gt;");
  EXPECT_EQ(escape_markup("h\xc3\xb4te\t1;#", Markup::xml), "h\xc3\xb4te\t1;#"); // UTF-8, tab, ; and # as is
}
