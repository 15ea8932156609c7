// Tables rendered as aligned text, Markdown and CSV; the number and CSV-field policies they share.
#include "base/table.hpp"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <fmt/format.h>

namespace pipesim {

std::string format_number(double x, std::string_view spec)
{
  if (std::isnan(x)) return "nan";
  if (std::isinf(x)) return x > 0 ? "inf" : "-inf";
  return fmt::format(fmt::runtime(fmt::format("{{:{}}}", spec)), x);
}

std::string format_number(std::optional<double> x, std::string_view spec, std::string_view missing)
{
  return x ? format_number(*x, spec) : std::string(missing);
}

std::string csv_field(std::string_view text)
{
  if (text.find_first_of(",\"\r\n") == std::string_view::npos) return std::string(text);
  std::string out = "\"";
  for (char c : text) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + "\"";
}

std::string csv_line(const std::vector<std::string>& fields)
{
  std::string out;
  for (std::size_t i = 0; i < fields.size(); ++i) { // two appends: `"," + std::string&&` trips GCC 12's -Wrestrict
    if (i > 0) out += ',';
    out += csv_field(fields[i]);
  }
  return out;
}

Table& Table::add_column(std::string name, Align align, int min_width, int gap)
{
  assert(rows_.empty() && "columns come before rows");
  columns_.push_back({std::move(name), align, min_width, gap});
  return *this;
}

Table& Table::add_row(std::vector<std::string> cells)
{
  assert(cells.size() <= columns_.size() && "more cells than columns");
  cells.resize(columns_.size());
  rows_.push_back(std::move(cells));
  return *this;
}

namespace {
/// Characters on a terminal: UTF-8 continuation bytes do not count.
std::size_t display_width(const std::string& s)
{
  return static_cast<std::size_t>(std::ranges::count_if(s, [](char c) { return (c & 0xC0) != 0x80; }));
}

std::string replace_all(std::string s, std::string_view what, std::string_view with)
{
  for (std::size_t i = s.find(what); i != std::string::npos; i = s.find(what, i + with.size()))
    s.replace(i, what.size(), with);
  return s;
}

std::string one_line(const std::string& s)
{
  std::string out = s;
  std::ranges::replace(out, '\n', ' ');
  std::erase(out, '\r');
  return out;
}

std::string markdown_cell(const std::string& s)
{
  return replace_all(replace_all(replace_all(s, "|", "\\|"), "\r", ""), "\n", "<br>");
}
} // namespace

std::string Table::text(int indent) const
{
  std::vector<std::size_t> width(columns_.size());
  for (std::size_t c = 0; c < columns_.size(); ++c) {
    width[c] = std::max(static_cast<std::size_t>(std::max(columns_[c].min_width, 0)), display_width(columns_[c].name));
    for (const auto& row : rows_)
      width[c] = std::max(width[c], display_width(one_line(row[c])));
  }
  auto line = [&](auto cell_of) {
    std::string out(static_cast<std::size_t>(std::max(indent, 0)), ' ');
    for (std::size_t c = 0; c < columns_.size(); ++c) {
      if (c > 0) out.append(static_cast<std::size_t>(std::max(columns_[c].gap, 0)), ' ');
      std::string cell = one_line(cell_of(c));
      std::string pad(width[c] - display_width(cell), ' ');
      out += columns_[c].align == Align::right ? pad + cell : cell + pad;
    }
    out.erase(out.find_last_not_of(' ') + 1);
    return out + "\n";
  };
  std::string out = line([&](std::size_t c) { return columns_[c].name; });
  for (const auto& row : rows_)
    out += line([&](std::size_t c) { return row[c]; });
  return out;
}

std::string Table::markdown() const
{
  std::string head = "|";
  std::string rule = "|";
  for (const auto& col : columns_) {
    head += " " + markdown_cell(col.name) + " |";
    rule += col.align == Align::right ? "---:|" : "---|";
  }
  std::string out = head + "\n" + rule + "\n";
  for (const auto& row : rows_) {
    out += "|";
    for (const auto& cell : row)
      out += " " + markdown_cell(cell) + " |";
    out += "\n";
  }
  return out;
}

std::string Table::csv() const
{
  std::vector<std::string> names;
  for (const auto& col : columns_)
    names.push_back(col.name);
  std::string out = csv_line(names) + "\n";
  for (const auto& row : rows_)
    out += csv_line(row) + "\n";
  return out;
}

std::string Table::render(TableFormat format, int indent) const
{
  switch (format) {
  case TableFormat::text:
    return text(indent);
  case TableFormat::markdown:
    return markdown();
  case TableFormat::csv:
    return csv();
  }
  return text(indent);
}

} // namespace pipesim
