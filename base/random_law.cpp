// Unit-mean laws and the keyed streams they draw from.
#include "base/random_law.hpp"

#include "base/input_error.hpp"
#include "base/ziggurat.hpp"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>

namespace pipesim {

namespace {

constexpr std::uint64_t golden = 0x9e3779b97f4a7c15ULL;

/// splitmix64's output function: a bijection of 64-bit words with full avalanche.
std::uint64_t mix64(std::uint64_t z)
{
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

const double sqrt3 = std::sqrt(3.0);

/// Marsaglia and Tsang (ACM TOMS 26(3), 2000): Gamma(shape >= 1, scale 1) with d = shape - 1/3, c = 1 / sqrt(9 d).
double gamma_at_least_one(double d, double c, KeyedStream& stream)
{
  for (;;) {
    double x = stream.normal();
    double v = 1.0 + c * x;
    if (v <= 0) continue;
    v        = v * v * v;
    double u = stream.open01();
    if (u < 1.0 - 0.0331 * x * x * x * x) return d * v;
    if (std::log(u) < 0.5 * x * x + d * (1.0 - v + std::log(v))) return d * v;
  }
}

} // namespace

std::uint64_t KeyedStream::prefix(std::uint64_t seed, std::uint64_t what, std::uint64_t index)
{
  // distinct (what, index) pairs give distinct words for index < 2^62
  return mix64(mix64(seed + golden) ^ (what << 62 | index));
}

KeyedStream::KeyedStream(std::uint64_t prefix, std::uint64_t k) : state_(mix64(prefix ^ mix64(k + golden))) {}

KeyedStream::KeyedStream(std::uint64_t seed, std::uint64_t what, std::uint64_t index, std::uint64_t k)
    : KeyedStream(prefix(seed, what, index), k)
{
}

std::uint64_t KeyedStream::next() { return mix64(state_ += golden); }

double KeyedStream::uniform01() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }

double KeyedStream::open01() { return 1.0 - uniform01(); }

double KeyedStream::normal() { return ziggurat_normal(*this); }

double KeyedStream::exponential() { return ziggurat_exponential(*this); }

std::optional<std::string> UnitLaw::cv_error(Law law, double cv)
{
  switch (law) {
  case Law::deterministic:
  case Law::exponential:
  case Law::empirical:
    return fmt::format("a {} law takes no cv (its cv is {})", law,
                       law == Law::exponential     ? "1"
                       : law == Law::deterministic ? "0"
                                                   : "that of its samples");
  case Law::uniform:
    if (!(cv >= 0) || !std::isfinite(cv) || cv * sqrt3 > 1 + 1e-12)
      return "expected a cv in [0, 0.577]: a uniform law of mean 1 spans [1 - sqrt(3) cv, 1 + sqrt(3) cv], which "
             "must not go below 0 (cv <= 1/sqrt(3))";
    return std::nullopt;
  case Law::lognormal:
  case Law::gamma:
    if (!(cv >= 0) || !std::isfinite(cv) || cv > max_cv)
      return fmt::format("expected a cv in [0, {}]: beyond, the mean is carried by rare huge draws (a run of N data "
                         "sets estimates it with a relative error of cv/sqrt(N)){}",
                         max_cv, law == Law::gamma ? " and gamma draws underflow to 0 in double precision" : "");
    return std::nullopt;
  }
  return "unknown law";
}

std::optional<std::string> UnitLaw::samples_error(const std::vector<double>& samples)
{
  if (samples.empty()) return "no samples: an empirical law needs at least one value";
  double sum = 0;
  for (std::size_t i = 0; i < samples.size(); ++i) {
    if (!std::isfinite(samples[i]) || samples[i] < 0)
      return fmt::format("sample {} is {}: expected a finite value >= 0", i + 1, samples[i]);
    sum += samples[i];
  }
  if (!(sum > 0)) return "every sample is 0: the mean must be > 0 to scale the samples to the pipeline's value";
  return std::nullopt;
}

UnitLaw UnitLaw::exponential()
{
  UnitLaw law;
  law.law_ = Law::exponential;
  law.cv_  = 1;
  return law;
}

UnitLaw UnitLaw::with_cv(Law kind, double cv)
{
  if (auto error = cv_error(kind, cv))
    throw InputError::keyed("pipeline.variability", cv, fmt::format("cv of the {} law: {}", kind, *error));
  UnitLaw law;
  law.law_ = kind;
  law.cv_  = cv;
  if (kind == Law::uniform) law.a_ = std::min(1.0, sqrt3 * cv);
  if (kind == Law::lognormal) {
    law.a_    = std::sqrt(std::log1p(cv * cv));
    law.b_    = -0.5 * law.a_ * law.a_;
    law.nbue_ = cv == 0;
  }
  if (kind == Law::gamma) {
    law.a_    = cv > 0 ? 1.0 / (cv * cv) : 0;
    law.b_    = (law.a_ >= 1 ? law.a_ : law.a_ + 1) - 1.0 / 3.0;
    law.c_    = 1.0 / std::sqrt(9.0 * law.b_);
    law.nbue_ = cv <= 1;
  }
  return law;
}

UnitLaw UnitLaw::uniform(double cv) { return with_cv(Law::uniform, cv); }
UnitLaw UnitLaw::lognormal(double cv) { return with_cv(Law::lognormal, cv); }
UnitLaw UnitLaw::gamma(double cv) { return with_cv(Law::gamma, cv); }

UnitLaw UnitLaw::empirical(const std::vector<double>& samples, std::string source)
{
  if (auto error = samples_error(samples))
    throw InputError::keyed("pipeline.variability", source, fmt::format("samples of the empirical law: {}", *error));
  double sum = 0;
  for (double x : samples)
    sum += x;
  const double mean = sum / static_cast<double>(samples.size());
  auto unit         = std::make_shared<std::vector<double>>();
  double sq         = 0;
  for (double x : samples) {
    unit->push_back(x / mean);
    sq += (unit->back() - 1) * (unit->back() - 1);
  }
  UnitLaw law;
  law.law_     = Law::empirical;
  law.cv_      = std::sqrt(sq / static_cast<double>(samples.size())); // of the law drawn from (the samples' own)
  law.samples_ = std::move(unit);
  law.source_  = std::move(source);
  law.nbue_    = nbue_holds_for(samples);
  return law;
}

double UnitLaw::draw(KeyedStream& stream) const
{
  if (constant()) return 1.0;
  switch (law_) {
  case Law::deterministic:
    return 1.0;
  case Law::exponential:
    return stream.exponential();
  case Law::uniform:
    return 1.0 + a_ * (2.0 * stream.uniform01() - 1.0);
  case Law::lognormal:
    return std::exp(b_ + a_ * stream.normal());
  case Law::gamma:
    if (a_ >= 1) return gamma_at_least_one(b_, c_, stream) / a_;
    // shape < 1: Gamma(a) = Gamma(a + 1) U^(1/a) (Marsaglia-Tsang's remark), computed in logs
    return gamma_at_least_one(b_, c_, stream) * std::exp(std::log(stream.open01()) / a_) / a_;
  case Law::empirical: {
    // Lemire's multiply-shift: the bias is below size / 2^64
    auto i = static_cast<std::size_t>((static_cast<unsigned __int128>(stream.next()) * samples_->size()) >> 64);
    return (*samples_)[i];
  }
  }
  return 1.0;
}

bool UnitLaw::nbue() const { return nbue_; }

std::string UnitLaw::to_string() const
{
  switch (law_) {
  case Law::deterministic:
  case Law::exponential:
    return pipesim::to_string(law_);
  case Law::empirical:
    return fmt::format("empirical({}: {} samples, cv {:.3g})", source_, samples_->size(), cv_);
  default:
    return fmt::format("{}(cv {})", law_, cv_);
  }
}

bool nbue_holds_for(std::vector<double> samples)
{
  if (samples.empty()) return true;
  std::sort(samples.begin(), samples.end());
  const auto m = static_cast<double>(samples.size());
  double total = 0;
  for (double x : samples)
    total += x;
  const double mean = total / m;
  // walking t up the distinct values: `above` samples are > t and sum to `tail`
  double tail   = total;
  std::size_t i = 0;
  while (i < samples.size()) {
    const double t = samples[i];
    while (i < samples.size() && samples[i] == t)
      tail -= samples[i++];
    const auto above = static_cast<double>(samples.size() - i);
    // E[(X - t)^+] = (tail - above t) / m, E[X] P(X > t) = mean above / m
    if (tail - above * t > mean * above + 1e-12 * total) return false;
  }
  return true;
}

} // namespace pipesim
