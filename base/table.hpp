// One table type for everything pipesim prints as rows and columns: aligned text for a terminal, Markdown and CSV,
// with one escaping rule per format and one policy for infinities and NaN (docs/reports.md, "Tables, CSV and
// numbers").
//
//   Table t;
//   t.add_column("figure", Align::left, 22).add_column("analytic", Align::right, 16);
//   t.add_row({"period", format_number(7.0, ".10g")});
//   t.text(2);   // "  figure                         analytic\n  period                                7\n"
//   t.csv();     // "figure,analytic\nperiod,7\n"
#pragma once

#include "base/enum_names.hpp"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace pipesim {

/// The one way a number becomes text in a table, a CSV file or a text report. `spec` is a fmt format specification
/// without braces and without width (".10g", ".6f", "+.1f"). Whatever the spec, a non-finite number is written
/// "inf", "-inf" or "nan" (never "INF" or "-nan"); JSON writes it as null (validation/result_json.hpp).
std::string format_number(double x, std::string_view spec);
/// An optional number: format_number, or `missing` when there is none.
std::string format_number(std::optional<double> x, std::string_view spec, std::string_view missing);

/// The one CSV quoting rule (RFC 4180): a field holding a comma, a double quote, CR or LF is enclosed in double
/// quotes and each of its double quotes doubled; any other field is written as is.
std::string csv_field(std::string_view text);
/// csv_field of each field, joined by commas, without the line end.
std::string csv_line(const std::vector<std::string>& fields);

enum class Align { left, right };
PIPESIM_ENUM_NAMES(Align, {left, "left"}, {right, "right"});

/// The three renderings of a Table.
enum class TableFormat { text, markdown, csv };
PIPESIM_ENUM_NAMES(TableFormat, {text, "text"}, {markdown, "markdown"}, {csv, "csv"});

/// A header row of named columns and rows of cells (text; numbers made text by format_number, so that every format
/// shows the same digits).
class Table {
public:
  struct Column {
    std::string name;
    Align align   = Align::left;
    int min_width = 0; // text: the column is at least this wide (wider when a cell or the name needs it)
    int gap       = 1; // text: spaces before the column (not before the first one)
  };

  Table& add_column(std::string name, Align align = Align::left, int min_width = 0, int gap = 1);
  /// A row of at most as many cells as columns; missing trailing cells are empty.
  Table& add_row(std::vector<std::string> cells);

  const std::vector<Column>& columns() const { return columns_; }
  const std::vector<std::vector<std::string>>& rows() const { return rows_; }

  /// Aligned text: the header row then one line per row, each line `indent` spaces in, columns padded to their width
  /// and separated by their gap, trailing spaces removed. A line break inside a cell is written as a space.
  std::string text(int indent = 0) const;
  /// A GitHub Markdown table: `| a | b |`, then `|---|---:|` (right-aligned columns end in a colon), then the rows.
  /// A '|' in a cell is written "\|", a line break "<br>".
  std::string markdown() const;
  /// CSV: the header row then the rows, each field quoted by csv_field, each line ending in "\n".
  std::string csv() const;
  std::string render(TableFormat format, int indent = 0) const;

private:
  std::vector<Column> columns_;
  std::vector<std::vector<std::string>> rows_;
};

} // namespace pipesim
