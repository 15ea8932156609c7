// Random laws of mean 1 drawn from counter-based keyed streams: the random operation times of DESIGN.md §3.10.
//
// A pipeline's w_i and delta_i are means; a data set's value is the mean times a draw of a unit-mean law. Each draw
// comes from a stream keyed by (seed, what, index, k): nothing is shared between keys, so the value of a key does
// not depend on which other keys were drawn, or in which order (the simulator's actors, the max-plus recurrence and
// a rerun all see the same numbers), and two mappings of one scenario see the same draws (common random numbers).
#pragma once

#include "base/enum_names.hpp"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace pipesim {

/// The laws of `pipeline.variability` (docs/scenarios.md).
enum class Law { deterministic, exponential, uniform, lognormal, gamma, empirical };
PIPESIM_ENUM_NAMES(Law, {deterministic, "deterministic"}, {exponential, "exponential"}, {uniform, "uniform"},
                   {lognormal, "lognormal"}, {gamma, "gamma"}, {empirical, "empirical"});

/// The draws of one key: a splitmix64 sequence (Steele, Lea, Flood, OOPSLA 2014) started from a hash of the key.
/// Creating one costs three 64-bit mixes; every draw of the key comes from its own stream, so keys are independent
/// of one another and of the order in which they are asked for.
class KeyedStream {
public:
  KeyedStream(std::uint64_t seed, std::uint64_t what, std::uint64_t index, std::uint64_t k);
  /// The same stream from prefix(seed, what, index), computed once per (seed, what, index): one mix less per key.
  KeyedStream(std::uint64_t prefix, std::uint64_t k);
  static std::uint64_t prefix(std::uint64_t seed, std::uint64_t what, std::uint64_t index);
  std::uint64_t next();
  double uniform01();   // [0, 1), 53 bits
  double open01();      // (0, 1]
  double normal();      // standard normal (ziggurat, base/ziggurat.hpp)
  double exponential(); // Exp(1) (ziggurat)

private:
  std::uint64_t state_;
};

/// A law of mean 1 (the caller multiplies by the mean). Its coefficient of variation `cv` (standard deviation / mean)
/// is fixed by the law (deterministic 0, exponential 1), given (uniform, lognormal, gamma) or that of the samples
/// (empirical). Limits on the given cv (cv_error says which and why):
/// - uniform: on [1 - sqrt(3) cv, 1 + sqrt(3) cv], so cv <= 1/sqrt(3) = 0.577 (beyond, durations would be negative);
/// - lognormal and gamma: cv <= max_cv = 10. Beyond, the mean is carried by rare huge draws: at cv = 10 one draw in
///   100 carries 43 % (lognormal) of the mean and a run of N data sets estimates the mean work itself with a relative
///   standard error of cv / sqrt(N) (10 % at N = 10,000): no simulation length a user would choose gives a period
///   worth reporting. Gamma's shape 1/cv^2 also falls below 0.01, where about one draw in 1,000 (more beyond) is below
///   1e-300 times the mean (a zero or subnormal in double precision: Marsaglia-Tsang's U^(1/shape) underflows).
/// cv = 0 is accepted for uniform, lognormal and gamma: every draw is exactly 1 (deterministic).
class UnitLaw {
public:
  static constexpr double max_cv = 10;

  UnitLaw() = default; // deterministic
  static UnitLaw exponential();
  static UnitLaw uniform(double cv);
  static UnitLaw lognormal(double cv);
  static UnitLaw gamma(double cv);
  /// Bootstrap from `samples` (>= 0, finite, positive mean), each divided by their mean; `source` names them (a file)
  /// in messages. A draw picks one sample uniformly.
  static UnitLaw empirical(const std::vector<double>& samples, std::string source);
  /// With a cv: uniform, lognormal or gamma; deterministic and exponential take none.
  static UnitLaw with_cv(Law law, double cv);

  /// Why `cv` is not a coefficient of variation of `law` (see the class comment), or nothing.
  static std::optional<std::string> cv_error(Law law, double cv);
  /// Why a list of samples cannot make an empirical law, or nothing: empty, a negative or non-finite value (its
  /// 0-based position is given), or a mean of 0.
  static std::optional<std::string> samples_error(const std::vector<double>& samples);

  Law law() const { return law_; }
  double cv() const { return cv_; }
  /// Every draw is exactly 1 (deterministic, or a cv of 0).
  bool constant() const { return law_ == Law::deterministic || (cv_ == 0 && law_ != Law::empirical); }
  double draw(KeyedStream& stream) const;

  /// New Better than Used in Expectation: E[X - t | X > t] <= E[X] for every t >= 0 (the hypothesis of Benoit,
  /// Gallet, Gaujal, Robert, Algorithmica 69(4) 2014, for deterministic <= period <= exponential). Deterministic,
  /// exponential (equality), uniform (increasing failure rate) and gamma with cv <= 1 (shape >= 1: increasing failure
  /// rate) are; gamma with cv > 1 is not (decreasing failure rate: the mean residual life exceeds the mean); lognormal
  /// with cv > 0 is never (its mean residual life grows without bound, like sigma^2 t / ln t); an empirical law is
  /// checked on its samples (nbue_holds_for).
  bool nbue() const;
  /// "gamma(cv 0.5)", "empirical(times.txt: 120 samples, cv 0.31)".
  std::string to_string() const;

private:
  Law law_   = Law::deterministic;
  double cv_ = 0;
  double a_  = 0; // uniform: sqrt(3) cv; lognormal: sigma; gamma: shape
  double b_  = 0; // lognormal: mu = -sigma^2 / 2; gamma: Marsaglia-Tsang's d = max(shape, shape + 1) - 1/3
  double c_  = 0; // gamma: Marsaglia-Tsang's c = 1 / sqrt(9 d)
  std::shared_ptr<const std::vector<double>> samples_; // empirical, unit mean
  std::string source_;
  bool nbue_ = true;
};

/// NBUE check of a discrete uniform law on `samples` (any mean > 0): for every t >= 0, E[(X - t)^+] <= E[X] P(X > t).
/// Between two sample values P(X > t) is constant and E[(X - t)^+] decreases, so checking t at each sample value
/// suffices; O(m log m). Tolerance: 1e-12 E[X] (rounding of the sums).
bool nbue_holds_for(std::vector<double> samples);

} // namespace pipesim
