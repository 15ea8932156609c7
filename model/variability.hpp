// Random operation times (DESIGN.md §3.10): each data set's work w_i and message size delta_i, drawn around the
// pipeline's values (their means) from streams keyed by (seed, stage, data set, what). The one place the simulator's
// deployments, the max-plus oracle and the exponential method get a data set's values from.
#pragma once

#include "base/random_law.hpp"
#include "model/pipeline.hpp"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace pipesim {

/// `pipeline.variability` as a scenario gives it (scenarios/variability_spec.hpp reads it): a law for every w_i and
/// every delta_i, and per-stage exceptions. Deterministic everywhere by default.
struct VariabilitySpec {
  std::optional<std::uint64_t> seed; // absent: the simulation's seed
  UnitLaw work;                      // law of every w_i not in work_of
  UnitLaw size;                      // law of every delta_i not in size_of
  std::map<int, UnitLaw> work_of;    // w_i for a stage 1 <= i <= n
  std::map<int, UnitLaw> size_of;    // delta_i for 0 <= i <= n (stage i's output; delta_0 is P_in's message)

  /// Every law is constant: the values are the pipeline's.
  bool deterministic() const;
};

/// What a draw is of: the keys of the streams.
enum class Quantity { work, size };
PIPESIM_ENUM_NAMES(Quantity, {work, "work"}, {size, "size"});

/// The values of every data set k >= 0: w_i(k) = w_i x X and delta_i(k) = delta_i x X, X drawn from the law of w_i
/// (delta_i) on the stream keyed by (seed, Quantity, i, k). A value depends on nothing else: not on the mapping (two
/// mappings see the same values: common random numbers), not on which values were asked before or in which order,
/// and a rerun with the same seed gets the same bits. Cost of a random value: a stream (two 64-bit mixes, the third
/// precomputed per stage) and one draw (a ziggurat step for exponential and normal, a rejection loop for gamma); a
/// deterministic value is the mean, with no stream.
class Variability {
public:
  /// No stage (a placeholder to assign to).
  Variability() = default;
  /// Deterministic: every data set has the pipeline's values.
  explicit Variability(const Pipeline& means);
  /// InputError when `spec` names a stage outside 1..n (work) or 0..n (size).
  Variability(const Pipeline& means, const VariabilitySpec& spec, std::uint64_t seed);

  /// w_i of data set k (1 <= i <= n, papers' numbering), in flop.
  double work(int i, long long k) const;
  /// sum of w_i(k) for first <= i <= last, added in stage order (what an interval computes for data set k).
  double work(int first, int last, long long k) const;
  /// delta_i of data set k (0 <= i <= n), in bytes: what stage i sends (delta_0 comes from P_in, delta_n goes to
  /// P_out).
  double size(int i, long long k) const;

  /// Every value of data set k at once, as work(i, k) and size(i, k) give them: w[i - 1] = w_i(k) for 1 <= i <= n,
  /// delta[i] = delta_i(k) for 0 <= i <= n (the caller's arrays; the max-plus recurrence fills a round this way).
  void values(long long k, double* w, double* delta) const;

  const Pipeline& means() const { return means_; }
  std::uint64_t seed() const { return seed_; }
  const UnitLaw& work_law(int i) const { return work_.at(static_cast<std::size_t>(i - 1)); }
  const UnitLaw& size_law(int i) const { return size_.at(static_cast<std::size_t>(i)); }
  /// Every law is constant: work(i, k) = w_i and size(i, k) = delta_i for every k.
  bool deterministic() const;
  /// Every law is N.B.U.E. (UnitLaw::nbue): the first that is not, as "w_2: lognormal(cv 0.5)", or nothing.
  std::optional<std::string> first_not_nbue() const;
  /// "w: exponential, delta: deterministic (seed 42)", with the stages whose law differs.
  std::string to_string() const;

private:
  Pipeline means_;
  std::vector<UnitLaw> work_; // per stage, w_1 at 0
  std::vector<UnitLaw> size_; // delta_0..delta_n
  std::uint64_t seed_ = 0;
  std::vector<std::uint64_t> work_key_, size_key_; // KeyedStream::prefix of each (seed, quantity, i)
  std::vector<int> random_work_, random_size_;     // the i whose law is not constant
};

} // namespace pipesim
