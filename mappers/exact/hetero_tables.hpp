// The tables of exact::HeteroSearch that do not depend on its processor sets: transfers and W/s of the instance in
// the search order, eq. (2)'s arithmetic, and the capacity and interval-count bounds of a period bound T.
#pragma once

#include "mappers/exact/max_addend.hpp"
#include "mappers/exact/search.hpp"

#include <cstdint>
#include <limits>
#include <utility>
#include <vector>

namespace pipesim::exact {

/// The instance as HeteroSearch sees it (hetero_search.hpp has the method): stages in the search order (S_n back to
/// S_1 when `reversed`), the transfer t(a, b, delta_k) across each boundary k of that order, W/s of each interval on
/// each processor, and, for a bound T (set_period), the capacity and count bounds. The small accessors are inline:
/// the search calls them in its innermost loops.
class HeteroTables {
protected:
  static constexpr double infinity = std::numeric_limits<double>::infinity();

  HeteroTables(const Problem& problem, bool reversed);

  /// Transfer across boundary k of the search order (k = 0: from the source P_in, or P_out when reversed; k = n:
  /// to the sink) from a to b in that order: t(a, b, delta_k), or t(b, a, delta_{n-k}) when reversed.
  double transfer(int a, int b, int k) const
  {
    if (not transfers_.empty())
      return transfers_[(static_cast<std::size_t>(k) * size_ + static_cast<std::size_t>(a)) * size_ +
                        static_cast<std::size_t>(b)];
    return compute_transfer(a, b, k);
  }
  double compute_transfer(int a, int b, int k) const
  {
    if (reversed_) { // the data flows from b to a, across the boundary n - k of the pipeline
      std::swap(a, b);
      k = n_ - k;
    }
    auto at = static_cast<std::size_t>(a) * size_ + static_cast<std::size_t>(b);
    return latency_[at] + problem_.pipeline.delta[static_cast<std::size_t>(k)] / bandwidth_[at];
  }
  /// W of the placed stages i..e (0-based, search order).
  double work(int i, int e) const
  {
    if (reversed_) {
      int first = n_ - 1 - e;
      e         = n_ - 1 - i;
      i         = first;
    }
    return work_[static_cast<std::size_t>(i * n_ + e)];
  }
  double time(int v, int i, int e) const
  {
    if (not times_.empty())
      return times_[(static_cast<std::size_t>(v) * n_ + static_cast<std::size_t>(i)) * n_ +
                    static_cast<std::size_t>(e)];
    return work(i, e) / speed_[static_cast<std::size_t>(v)];
  }
  /// br07 eq. (2): (input + W/s) + output, in the pipeline's order whatever the search order.
  double cycle(double x_in, double w, double x_out) const { return reversed_ ? x_out + w + x_in : x_in + w + x_out; }
  /// Largest x_out with cycle <= T.
  double threshold(double x_in, double w) const
  {
    return reversed_ ? max_addend(w, max_addend(x_in, period_)) : max_addend(x_in + w, period_);
  }
  /// Largest x_in with cycle <= T.
  double max_input(double w, double x_out) const
  {
    return reversed_ ? max_addend(x_out + w, period_) : max_addend(w, max_addend(x_out, period_));
  }
  /// The bound T, and the tables that depend on it (capacity_, min_count_).
  void set_period(double period);
  /// t <= A_F[k][w] in eq. (2)'s rounded operations: some interval [k, e] on w fits with input t and output
  /// Need_F[e + 1][w] (`need`, rows of p values).
  bool affords_exactly(int k, int w, const double* need, double t) const;

  const Problem& problem_;
  bool reversed_    = false;
  int n_            = 0;
  int p_            = 0;
  int source_       = 0; // node index: P_in (P_out when reversed)
  int sink_         = 0;
  std::size_t size_ = 0; // number of nodes
  std::vector<double> speed_;
  std::vector<double> latency_; // a * size + b
  std::vector<double> bandwidth_;
  std::vector<double> work_;      // forward order, see interval_work_table
  std::vector<double> transfers_; // (k * size + a) * size + b -> transfer(a, b, k), if not too large
  std::vector<double> times_;     // (v * n + i) * n + e -> W(i..e)/s_v, if not too large
  std::vector<double> min_in_;    // v * n + i -> cheapest transfer into v across boundary i
  std::vector<double> min_out_;   // v * n + e -> cheapest transfer out of v across boundary e + 1

  // Depend on the bound T.
  double period_    = 0;
  double tolerance_ = 0;         // where the fast test of Need_F defers to the exact one
  std::vector<double> capacity_; // v * (n + 1) + i
  std::vector<int> min_count_;   // i -> least number of intervals for the stages i..n-1

private:
  void build_tables();
};

} // namespace pipesim::exact
