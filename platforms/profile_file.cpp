// SimGrid's deterministic profile format, read strictly (file:line errors) and written back.
#include "platforms/profile_file.hpp"

#include "base/input_error.hpp"

#include <cmath>
#include <fmt/format.h>
#include <fstream>
#include <sstream>
#include <vector>

namespace pipesim {

std::optional<std::string> profile_value_problem(ProfileKind kind, double value)
{
  if (!std::isfinite(value)) return "expected a finite value";
  switch (kind) {
  case ProfileKind::speed:
    if (value <= 0) return "expected a speed > 0 (SimGrid never ends a computation at speed 0: use a state profile)";
    break;
  case ProfileKind::bandwidth:
    if (value <= 0)
      return "expected a bandwidth > 0 (SimGrid never ends a transfer at bandwidth 0: use a state profile)";
    break;
  case ProfileKind::latency:
    if (value < 0) return "expected a latency >= 0";
    break;
  case ProfileKind::state:
    if (value < 0) return "expected a state >= 0 (0: off, > 0: on)";
    break;
  }
  return std::nullopt;
}

std::optional<std::string> profile_date_problem(double date, std::optional<double> previous)
{
  if (!std::isfinite(date) || date < 0) return "expected a date >= 0 (seconds)";
  if (previous && date <= *previous)
    return fmt::format("dates must increase (the previous point is at {:g})", *previous);
  return std::nullopt;
}

std::optional<std::string> profile_period_problem(const Profile& profile, double period)
{
  if (!std::isfinite(period) || period <= 0) return "expected a loop period > 0 (seconds)";
  if (profile.points.empty()) return std::nullopt;
  double span = profile.points.back().date - profile.points.front().date;
  if (period <= span)
    return fmt::format("the loop period must exceed the time from the first date to the last ({:g} s): a repetition "
                       "would start before the previous one ends",
                       span);
  return std::nullopt;
}

namespace {

std::string trim(const std::string& s)
{
  auto b = s.find_first_not_of(" \t\r");
  if (b == std::string::npos) return "";
  auto e = s.find_last_not_of(" \t\r");
  return s.substr(b, e - b + 1);
}

/// The line's words, each a number; nullopt when one is not.
std::optional<std::vector<double>> numbers(const std::vector<std::string>& words)
{
  std::vector<double> xs;
  for (const auto& w : words) {
    char* end = nullptr;
    double x  = std::strtod(w.c_str(), &end);
    if (end == w.c_str() || *end != '\0') return std::nullopt;
    xs.push_back(x);
  }
  return xs;
}

struct Reader {
  const std::string& file;
  ProfileKind kind;
  Profile profile;
  std::optional<double> loop_after;
  std::optional<double> periodicity;

  [[noreturn]] void fail(int line, const std::string& text, const std::string& why) const
  {
    throw InputError::in_file(file, line, fmt::format("{} profile line '{}': {}", to_string(kind), text, why));
  }

  void keyword(int line, const std::string& text, const std::vector<std::string>& words)
  {
    auto xs = words.size() == 2 ? numbers({words[1]}) : std::nullopt;
    if (!xs) fail(line, text, fmt::format("expected '{} SECONDS'", words[0]));
    double x = xs->front();
    if (!std::isfinite(x) || x < 0) fail(line, text, "expected a number of seconds >= 0");
    if (loop_after || periodicity) fail(line, text, "a profile repeats once: give one LOOPAFTER or PERIODICITY");
    (words[0] == "LOOPAFTER" ? loop_after : periodicity) = x;
  }

  void point(int line, const std::string& text, const std::vector<std::string>& words)
  {
    auto xs = words.size() == 2 ? numbers(words) : std::nullopt;
    if (!xs)
      fail(line, text,
           "expected 'DATE VALUE' (two numbers), LOOPAFTER or PERIODICITY (stochastic profiles are not read: "
           "their dates are not known beforehand)");
    std::optional<double> previous;
    if (!profile.points.empty()) previous = profile.points.back().date;
    if (auto why = profile_date_problem((*xs)[0], previous)) fail(line, text, *why);
    if (auto why = profile_value_problem(kind, (*xs)[1])) fail(line, text, *why);
    profile.points.push_back({(*xs)[0], (*xs)[1]});
  }

  void finish(int lines)
  {
    if (profile.points.empty()) fail(lines, "", "no 'DATE VALUE' line: the profile changes nothing");
    if (!loop_after && !periodicity) return;
    double period = periodicity ? *periodicity : profile.points.back().date + *loop_after;
    if (periodicity && period < profile.points.back().date)
      fail(lines, fmt::format("PERIODICITY {:g}", period), "the period must be >= the last date (SimGrid 3.32 aborts)");
    if (auto why = profile_period_problem(profile, period))
      fail(lines, fmt::format("{} {:g}", periodicity ? "PERIODICITY" : "LOOPAFTER", periodicity ? period : *loop_after),
           *why);
    profile.period = period;
  }
};

} // namespace

Profile parse_profile_text(const std::string& text, const std::string& file, ProfileKind kind)
{
  Reader reader{file, kind, {}, {}, {}};
  reader.profile.source = file;
  std::istringstream in(text);
  std::string raw;
  int line = 0;
  while (std::getline(in, raw)) {
    ++line;
    std::string t = trim(raw);
    if (t.empty() || t.front() == '#' || t.front() == '%') continue;
    std::istringstream words_in(t);
    std::vector<std::string> words;
    for (std::string w; words_in >> w;)
      words.push_back(w);
    if (words[0] == "LOOPAFTER" || words[0] == "PERIODICITY")
      reader.keyword(line, t, words);
    else
      reader.point(line, t, words);
  }
  reader.finish(line);
  return reader.profile;
}

Profile read_profile_file(const std::string& path, ProfileKind kind)
{
  std::ifstream in(path);
  if (!in) throw InputError::in_file(path, 0, fmt::format("cannot read this {} profile file", to_string(kind)));
  std::stringstream text;
  text << in.rdbuf();
  return parse_profile_text(text.str(), path, kind);
}

std::string profile_text(const Profile& profile)
{
  std::string text;
  for (const auto& p : profile.points)
    text += fmt::format("{:.17g} {:.17g}\n", p.date, p.value);
  if (profile.period > 0) text += fmt::format("PERIODICITY {:.17g}\n", profile.period);
  return text;
}

} // namespace pipesim
