// The four rooms of validation/ (DESIGN.md §8): a file includes headers of its own room and of the rooms below it,
// evaluation < campaigns < reports < studies (the order of validation/CMakeLists.txt), never above; scenarios/ (the
// scenario and campaign schemas) includes none; no C++ file is left at the top of validation/, where no target would
// compile it.
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

namespace {

namespace fs = std::filesystem;

const std::vector<std::string> rooms_bottom_up = {"evaluation", "campaigns", "reports", "studies"};

int room_rank(const std::string& room)
{
  auto it = std::find(rooms_bottom_up.begin(), rooms_bottom_up.end(), room);
  return it == rooms_bottom_up.end() ? -1 : static_cast<int>(it - rooms_bottom_up.begin());
}

/// The #include lines of `text` (a file of room `room`) that name a validation/ header above `room` or outside the
/// rooms.
std::vector<std::string> upward_includes(const std::string& text, const std::string& room)
{
  static const std::regex include_line(R"re(^\s*#\s*include\s+"validation/([^"]+)")re");
  std::vector<std::string> upward;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    std::smatch m;
    if (!std::regex_search(line, m, include_line)) continue;
    std::string path = m[1];
    auto slash       = path.find('/');
    int to           = slash == std::string::npos ? -1 : room_rank(path.substr(0, slash));
    if (to < 0 || to > room_rank(room)) upward.push_back(line);
  }
  return upward;
}

bool is_cxx(const fs::path& p) { return p.extension() == ".cpp" || p.extension() == ".hpp"; }

std::string file_text(const fs::path& p)
{
  std::ifstream in(p);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

} // namespace

TEST(ValidationRooms, TheCheckFindsAnUpwardInclude)
{
  std::string text = "#include \"validation/evaluation/scenario_run.hpp\"\n"
                     "#include \"validation/campaigns/campaign_row.hpp\"\n"
                     "  #  include \"validation/reports/report_data.hpp\"\n"
                     "#include \"validation/scenario_run.hpp\"\n"
                     "#include \"scenarios/scenario.hpp\"\n";
  EXPECT_EQ(upward_includes(text, "studies"), std::vector<std::string>{"#include \"validation/scenario_run.hpp\""});
  EXPECT_EQ(upward_includes(text, "campaigns"),
            (std::vector<std::string>{"  #  include \"validation/reports/report_data.hpp\"",
                                      "#include \"validation/scenario_run.hpp\""}));
  EXPECT_EQ(upward_includes(text, "evaluation").size(), 3u);
}

TEST(ValidationRooms, IncludesPointDownOnly)
{
  const fs::path root = fs::path(PIPESIM_SOURCE_DIR) / "validation";
  std::vector<int> files(rooms_bottom_up.size(), 0);
  std::string found;
  for (const std::string& room : rooms_bottom_up)
    for (const auto& entry : fs::recursive_directory_iterator(root / room)) {
      if (!entry.is_regular_file() || !is_cxx(entry.path())) continue;
      ++files[static_cast<std::size_t>(room_rank(room))];
      for (const std::string& line : upward_includes(file_text(entry.path()), room))
        found += fs::relative(entry.path(), PIPESIM_SOURCE_DIR).string() + " (" + room + "): " + line + "\n";
    }
  // scenarios/ (the scenario and campaign schemas) is below every room: it includes nothing of validation/
  for (const auto& entry : fs::directory_iterator(fs::path(PIPESIM_SOURCE_DIR) / "scenarios"))
    if (entry.is_regular_file() && is_cxx(entry.path()))
      for (const std::string& line : upward_includes(file_text(entry.path()), ""))
        found += fs::relative(entry.path(), PIPESIM_SOURCE_DIR).string() + ": " + line + "\n";
  for (std::size_t r = 0; r < files.size(); ++r)
    EXPECT_GT(files[r], 10) << rooms_bottom_up[r];
  EXPECT_EQ(found, "") << "upward includes (evaluation < campaigns < reports < studies)";
}

TEST(ValidationRooms, NoSourceAtTheTop)
{
  std::string top;
  for (const auto& entry : fs::directory_iterator(fs::path(PIPESIM_SOURCE_DIR) / "validation"))
    if (entry.is_regular_file() && is_cxx(entry.path())) top += entry.path().filename().string() + " ";
  EXPECT_EQ(top, "") << "move these into a room (validation/CMakeLists.txt compiles only the rooms)";
}
