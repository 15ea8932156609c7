// The report's mean period per mapper and family (report_means.hpp).
#include "validation/reports/report_means.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <limits>
#include <map>
#include <set>
#include <tuple>

namespace pipesim {

namespace {
/// A swept value as text: a string as written, anything else as JSON ("[1,20]"); "null" when the row lacks it.
std::string param_text(const CampaignRow& row, const std::string& key)
{
  auto it = row.params.find(key);
  if (it == row.params.end() || it->is_null()) return "null";
  return it->is_string() ? it->get<std::string>() : it->dump();
}

/// An ok row on the x axis, with its values of the keys that may split curves.
struct Point {
  const CampaignRow* row = nullptr;
  double x               = 0;
  std::vector<std::string> values;
};

/// The values of the chosen keys, joined with a separator no YAML scalar of a swept value holds.
std::string joined(const Point& pt, const std::vector<bool>& chosen)
{
  std::string out;
  for (std::size_t i = 0; i < chosen.size(); ++i)
    if (chosen[i]) out += pt.values[i] + '\x1f';
  return out;
}

/// The keys that take two values or more among the points of one mapper.
std::vector<bool> splitting_keys(const std::vector<Point>& points, std::size_t keys)
{
  std::vector<bool> split(keys, false);
  for (std::size_t i = 0; i < keys; ++i) {
    std::map<std::string, std::set<std::string>> values; // mapper -> values of key i
    for (const Point& pt : points)
      values[pt.row->mapper].insert(pt.values[i]);
    split[i] = std::ranges::any_of(values, [](const auto& entry) { return entry.second.size() > 1; });
  }
  return split;
}

/// The splitting keys a title needs: each is dropped, from the last, when the others still tell every mapper's
/// families apart (a key zipped with another adds nothing to the title).
std::vector<bool> title_keys(const std::vector<Point>& points, const std::vector<bool>& split)
{
  auto apart = [&](const std::vector<bool>& shown) {
    std::map<std::pair<std::string, std::string>, std::string> family_of; // (mapper, title) -> family
    for (const Point& pt : points) {
      auto [it, fresh] = family_of.emplace(std::pair(pt.row->mapper, joined(pt, shown)), joined(pt, split));
      if (!fresh && it->second != joined(pt, split)) return false;
    }
    return true;
  };
  std::vector<bool> shown = split;
  for (std::size_t i = shown.size(); i-- > 0;) {
    if (!shown[i]) continue;
    shown[i] = false;
    if (!apart(shown)) shown[i] = true;
  }
  return shown;
}

/// "KEY=VALUE KEY=VALUE" (every splitting key, in full) and "name = value, ..." (the title keys, by the last part of
/// their names unless two of them share it).
std::pair<std::string, std::string> family_texts(const Point& pt, const std::vector<std::string>& keys,
                                                 const std::vector<bool>& split, const std::vector<bool>& shown)
{
  auto last_part = [](const std::string& key) { return key.substr(key.rfind('.') + 1); };
  std::map<std::string, int> uses;
  for (std::size_t i = 0; i < keys.size(); ++i)
    uses[last_part(keys[i])] += shown[i] ? 1 : 0;
  std::string family, title;
  for (std::size_t i = 0; i < keys.size(); ++i) {
    if (split[i]) family += fmt::format("{}{}={}", family.empty() ? "" : " ", keys[i], pt.values[i]);
    std::string name = uses[last_part(keys[i])] > 1 ? keys[i] : last_part(keys[i]);
    if (shown[i]) title += fmt::format("{}{} = {}", title.empty() ? "" : ", ", name, pt.values[i]);
  }
  return {family, title};
}

/// Whether some cell (mapper, family, x) holds rows of platforms of different sizes: their processor count then
/// splits the curves too.
bool mixes_platform_sizes(const std::vector<Point>& points, const std::vector<bool>& split)
{
  std::map<std::tuple<std::string, std::string, double>, std::set<std::optional<int>>> sizes;
  for (const Point& pt : points)
    sizes[{pt.row->mapper, joined(pt, split), pt.x}].insert(pt.row->p);
  return std::ranges::any_of(sizes, [](const auto& cell) { return cell.second.size() > 1; });
}

/// The rows of one cell (mapper, family, x): their sums and the processor count they share.
struct Cell {
  PeriodSums sums;
  std::optional<int> p;
  bool mixed_p = false;
  void add(const CampaignRow& row)
  {
    if (sums.runs == 0)
      p = row.p;
    else if (p != row.p)
      mixed_p = true;
    sums.add(row);
  }
};
} // namespace

std::vector<MapperMean> mapper_means(const CampaignResults& results, const std::string& x_key)
{
  std::vector<std::string> keys;
  for (const auto& key : results.swept)
    if (key != x_key && key != "mapper" && key != "seed") keys.push_back(key);
  std::vector<Point> points;
  for (const auto& row : results.rows) {
    auto x = param_number(row, x_key);
    if (!row.ok() || !x) continue;
    Point pt{&row, *x, {}};
    for (const auto& key : keys)
      pt.values.push_back(param_text(row, key));
    points.push_back(std::move(pt));
  }
  std::vector<bool> split = splitting_keys(points, keys.size());
  if (mixes_platform_sizes(points, split)) { // the rows' processor count, when no swept key tells it (p = 10, 100)
    keys.emplace_back("p");
    for (Point& pt : points)
      pt.values.push_back(pt.row->p ? std::to_string(*pt.row->p) : "null");
    split.push_back(true);
  }
  const std::vector<bool> shown = title_keys(points, split);
  std::vector<std::string> mappers;
  std::map<std::string, std::vector<std::pair<std::string, std::string>>> families; // mapper -> (family, title)
  std::map<std::tuple<std::string, std::string, double>, Cell> cells;
  for (const Point& pt : points) {
    const std::string& mapper = pt.row->mapper;
    auto texts                = family_texts(pt, keys, split, shown);
    if (!families.contains(mapper)) mappers.push_back(mapper);
    if (std::ranges::find(families[mapper], texts) == families[mapper].end()) families[mapper].push_back(texts);
    cells[{mapper, texts.first, pt.x}].add(*pt.row);
  }
  std::vector<MapperMean> means;
  for (const auto& mapper : mappers)
    for (const auto& [family, title] : families[mapper])
      for (auto it = cells.lower_bound({mapper, family, -std::numeric_limits<double>::infinity()});
           it != cells.end() && std::get<0>(it->first) == mapper && std::get<1>(it->first) == family; ++it) {
        const Cell& cell = it->second;
        means.push_back(MapperMean{mapper, family, title, cell.mixed_p ? std::nullopt : cell.p, std::get<2>(it->first),
                                   cell.sums.runs, cell.sums.mean_analytic(), cell.sums.mean_simulated()});
      }
  return means;
}

} // namespace pipesim
