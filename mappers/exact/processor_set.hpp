// Sets of processors of the exact interval solver: a fixed number of 64-bit words, chosen at run time from p.
#pragma once

#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>

namespace pipesim::exact {

/// A set of processor indices 0..64 W - 1 in W words. With W = 1 every operation is the one-word bit trick it
/// replaces (the searches are instantiated for each width they need, so p <= 64 pays nothing for wider sets).
template <std::size_t W>
class ProcessorSet {
public:
  static constexpr int capacity = static_cast<int>(64 * W);

  /// {0, .., count - 1}.
  static ProcessorSet first_n(int count)
  {
    ProcessorSet set;
    for (std::size_t k = 0; k < W; ++k) {
      int in_word = count - static_cast<int>(64 * k);
      if (in_word >= 64)
        set.words_[k] = ~std::uint64_t{0};
      else if (in_word > 0)
        set.words_[k] = (std::uint64_t{1} << in_word) - 1;
    }
    return set;
  }
  bool contains(int v) const { return (words_[word(v)] >> bit(v) & 1) != 0; }
  ProcessorSet with(int v) const
  {
    ProcessorSet set = *this;
    set.words_[word(v)] |= std::uint64_t{1} << bit(v);
    return set;
  }
  ProcessorSet without(int v) const
  {
    ProcessorSet set = *this;
    set.words_[word(v)] &= ~(std::uint64_t{1} << bit(v));
    return set;
  }
  /// The `count` largest members (all of them if fewer).
  ProcessorSet highest(int count) const
  {
    ProcessorSet set;
    for (std::size_t k = W; k-- > 0 && count > 0;) {
      std::uint64_t w = words_[k];
      for (; w != 0 && count > 0; --count) {
        std::uint64_t top = std::uint64_t{1} << (63 - std::countl_zero(w));
        set.words_[k] |= top;
        w &= ~top;
      }
    }
    return set;
  }
  /// This set minus `other`.
  ProcessorSet minus(const ProcessorSet& other) const
  {
    ProcessorSet set;
    for (std::size_t k = 0; k < W; ++k)
      set.words_[k] = words_[k] & ~other.words_[k];
    return set;
  }
  bool empty() const
  {
    for (std::uint64_t w : words_)
      if (w != 0) return false;
    return true;
  }
  int size() const
  {
    int count = 0;
    for (std::uint64_t w : words_)
      count += std::popcount(w);
    return count;
  }
  /// Number of members >= v.
  int count_from(int v) const
  {
    if (v >= capacity) return 0;
    int count = std::popcount(words_[word(v)] >> bit(v));
    for (std::size_t k = word(v) + 1; k < W; ++k)
      count += std::popcount(words_[k]);
    return count;
  }
  /// Smallest member >= v, or -1.
  int first_from(int v) const
  {
    if (v >= capacity) return -1;
    std::uint64_t w = words_[word(v)] & (~std::uint64_t{0} << bit(v));
    for (std::size_t k = word(v);;) {
      if (w != 0) return static_cast<int>(64 * k) + std::countr_zero(w);
      if (++k == W) return -1;
      w = words_[k];
    }
  }
  /// Calls f(v) for each member v, in increasing order.
  template <class F>
  void for_each(F f) const
  {
    for (std::size_t k = 0; k < W; ++k)
      for (std::uint64_t w = words_[k]; w != 0; w &= w - 1)
        f(static_cast<int>(64 * k) + std::countr_zero(w));
  }
  /// Calls f(v) for each member v in increasing order until it returns true; whether one did.
  template <class F>
  bool any_of(F f) const
  {
    for (std::size_t k = 0; k < W; ++k)
      for (std::uint64_t w = words_[k]; w != 0; w &= w - 1)
        if (f(static_cast<int>(64 * k) + std::countr_zero(w))) return true;
    return false;
  }
  std::uint64_t hash() const
  {
    std::uint64_t h = 0;
    for (std::uint64_t w : words_)
      h = (h ^ w) * 0x9e3779b97f4a7c15ULL;
    return h;
  }
  friend bool operator==(const ProcessorSet&, const ProcessorSet&) = default;

private:
  static std::size_t word(int v) { return static_cast<std::size_t>(v) / 64; }
  static int bit(int v) { return v % 64; }
  std::array<std::uint64_t, W> words_{};
};

/// Words of the narrowest set type that holds `count` processors: 1, 2, 4, ... up to max_set_words.
inline constexpr std::size_t max_set_words = 32;
inline std::size_t set_words_for(int count)
{
  std::size_t words = 1;
  while (64 * static_cast<int>(words) < count)
    words *= 2;
  return words;
}

} // namespace pipesim::exact
