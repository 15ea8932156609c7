// The one way text goes into XML (SimGrid platform files) and HTML (reports): the five special characters as entities.
#pragma once

#include "base/enum_names.hpp"

#include <string>
#include <string_view>

namespace pipesim {

/// Where escaped text goes; the two differ only in how they write the apostrophe.
enum class Markup { xml, html };
PIPESIM_ENUM_NAMES(Markup, {xml, "xml"}, {html, "html"});

/// `text` with & < > " ' written as &amp; &lt; &gt; &quot; and, for the apostrophe, &apos; in XML (one of XML 1.0's
/// five predefined entities, what export_xml has always written and scan_xml_profile_files reads back) or &#39; in
/// HTML (HTML 4 has no &apos;; a numeric reference is read by every HTML and XML reader). Safe in element text and in
/// attribute values quoted with either quote; every other byte (UTF-8 included) is copied as is.
std::string escape_markup(std::string_view text, Markup markup);

} // namespace pipesim
