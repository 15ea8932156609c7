// The one way text goes into XML and HTML: the five special characters as entities.
#include "base/markup_escape.hpp"

namespace pipesim {

std::string escape_markup(std::string_view text, Markup markup)
{
  std::string out;
  out.reserve(text.size());
  for (char c : text)
    switch (c) {
    case '&':
      out += "&amp;";
      break;
    case '<':
      out += "&lt;";
      break;
    case '>':
      out += "&gt;";
      break;
    case '"':
      out += "&quot;";
      break;
    case '\'':
      out += markup == Markup::xml ? "&apos;" : "&#39;";
      break;
    default:
      out += c;
    }
  return out;
}

} // namespace pipesim
