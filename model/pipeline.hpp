// Pipeline of n stages S_1..S_n (br07 §2.1): stage i does w_i flop, receives delta_{i-1} bytes, sends delta_i.
#pragma once

#include <cstddef>
#include <vector>

namespace pipesim {

struct Pipeline {
  std::vector<double> w;     // w_1..w_n stored at w[0..n-1]
  std::vector<double> delta; // delta_0..delta_n stored at delta[0..n]

  int n() const { return static_cast<int>(w.size()); }
  /// w_i for a stage 1 <= i <= n (papers' numbering).
  double work(int i) const { return w.at(static_cast<std::size_t>(i - 1)); }
  /// delta_i for 0 <= i <= n.
  double data(int i) const { return delta.at(static_cast<std::size_t>(i)); }
  /// Sum of w_i for first <= i <= last. Complexity: O(last - first + 1).
  double work(int first, int last) const;

  /// Throws InputError unless n >= 1, |delta| = n + 1, all values finite and >= 0. Complexity: O(n).
  void validate() const;
};

} // namespace pipesim
