// Per-data-set work and message sizes drawn from keyed streams.
#include "model/variability.hpp"

#include "base/input_error.hpp"

#include <algorithm>
#include <fmt/format.h>

namespace pipesim {

namespace {

/// Data set k's value of quantity i: its mean times a draw of its unit-mean law from the stream keyed by
/// (prefixes[i], k); the mean itself, drawing nothing and reading no prefix, when the law is constant (a
/// deterministic Variability keeps no prefixes).
double keyed_draw(const UnitLaw& law, double mean, const std::vector<std::uint64_t>& prefixes, int i, long long k)
{
  if (law.constant()) return mean;
  KeyedStream stream(prefixes[static_cast<std::size_t>(i)], static_cast<std::uint64_t>(k));
  return mean * law.draw(stream);
}

bool all_constant(const std::vector<UnitLaw>& laws)
{
  return std::all_of(laws.begin(), laws.end(), [](const UnitLaw& law) { return law.constant(); });
}

/// "exponential" when every law is the same, else the default and the exceptions: "deterministic; w_2: gamma(cv 1)".
std::string laws_text(const std::vector<UnitLaw>& laws, const char* symbol, int first_index)
{
  std::map<std::string, int> count;
  for (const auto& law : laws)
    ++count[law.to_string()];
  auto common     = std::max_element(count.begin(), count.end(), [](auto& a, auto& b) { return a.second < b.second; });
  std::string out = common->first;
  for (std::size_t i = 0; i < laws.size(); ++i)
    if (laws[i].to_string() != common->first)
      out += fmt::format("; {}_{}: {}", symbol, static_cast<int>(i) + first_index, laws[i].to_string());
  return out;
}

} // namespace

bool VariabilitySpec::deterministic() const
{
  auto constant = [](const auto& laws) {
    return std::all_of(laws.begin(), laws.end(), [](const auto& kv) { return kv.second.constant(); });
  };
  return work.constant() && size.constant() && constant(work_of) && constant(size_of);
}

Variability::Variability(const Pipeline& means)
    : means_(means), work_(static_cast<std::size_t>(means.n())), size_(static_cast<std::size_t>(means.n() + 1))
{
}

Variability::Variability(const Pipeline& means, const VariabilitySpec& spec, std::uint64_t seed)
    : means_(means), work_(static_cast<std::size_t>(means.n()), spec.work),
      size_(static_cast<std::size_t>(means.n() + 1), spec.size), seed_(seed)
{
  for (const auto& [i, law] : spec.work_of) {
    if (i < 1 || i > means.n())
      throw InputError::keyed(fmt::format("pipeline.variability.stages.{}", i), i,
                              fmt::format("no stage of this number has a work w_i (stages 1..{})", means.n()));
    work_[static_cast<std::size_t>(i - 1)] = law;
  }
  for (const auto& [i, law] : spec.size_of) {
    if (i < 0 || i > means.n())
      throw InputError::keyed(fmt::format("pipeline.variability.stages.{}", i), i,
                              fmt::format("no message size delta_i of this number (delta_0..delta_{})", means.n()));
    size_[static_cast<std::size_t>(i)] = law;
  }
  for (int i = 1; i <= means.n(); ++i)
    if (!work_law(i).constant()) random_work_.push_back(i);
  for (int i = 0; i <= means.n(); ++i)
    if (!size_law(i).constant()) random_size_.push_back(i);
  for (int i = 0; i <= means.n(); ++i) {
    work_key_.push_back(
        KeyedStream::prefix(seed, static_cast<std::uint64_t>(Quantity::work), static_cast<std::uint64_t>(i)));
    size_key_.push_back(
        KeyedStream::prefix(seed, static_cast<std::uint64_t>(Quantity::size), static_cast<std::uint64_t>(i)));
  }
}

double Variability::work(int i, long long k) const { return keyed_draw(work_law(i), means_.work(i), work_key_, i, k); }

double Variability::work(int first, int last, long long k) const
{
  double sum = 0;
  for (int i = first; i <= last; ++i)
    sum += work(i, k);
  return sum;
}

double Variability::size(int i, long long k) const { return keyed_draw(size_law(i), means_.data(i), size_key_, i, k); }

void Variability::values(long long k, double* w, double* delta) const
{
  std::copy(means_.w.begin(), means_.w.end(), w);
  std::copy(means_.delta.begin(), means_.delta.end(), delta);
  for (int i : random_work_) {
    KeyedStream stream(work_key_[static_cast<std::size_t>(i)], static_cast<std::uint64_t>(k));
    w[i - 1] *= work_[static_cast<std::size_t>(i - 1)].draw(stream);
  }
  for (int i : random_size_) {
    KeyedStream stream(size_key_[static_cast<std::size_t>(i)], static_cast<std::uint64_t>(k));
    delta[i] *= size_[static_cast<std::size_t>(i)].draw(stream);
  }
}

bool Variability::deterministic() const { return all_constant(work_) && all_constant(size_); }

std::optional<std::string> Variability::first_not_nbue() const
{
  for (std::size_t i = 0; i < work_.size(); ++i)
    if (!work_[i].nbue()) return fmt::format("w_{}: {}", i + 1, work_[i].to_string());
  for (std::size_t i = 0; i < size_.size(); ++i)
    if (!size_[i].nbue()) return fmt::format("delta_{}: {}", i, size_[i].to_string());
  return std::nullopt;
}

std::string Variability::to_string() const
{
  if (means_.n() == 0) return "deterministic";
  if (deterministic()) return "deterministic";
  return fmt::format("w: {}, delta: {} (seed {})", laws_text(work_, "w", 1), laws_text(size_, "delta", 0), seed_);
}

} // namespace pipesim
