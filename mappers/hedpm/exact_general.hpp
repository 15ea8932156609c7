// HeDPM's exact optimum on any links: branch and bound with the last interval's ordered replicas in the state.
#pragma once

#include "mappers/hedpm/exact_bounds.hpp"
#include "mappers/hedpm/exact_search.hpp"

#include <span>
#include <unordered_map>

namespace pipesim::hedpm_exact {

/// Minimises HeDPM's production time on any platform (links and set-up times per pair, P_in and P_out included).
/// The times of an interval depend on the replica lists of both neighbours (model/hedpm/production_time.hpp: replica
/// r meets the neighbour replicas r' = r mod gcd(R, R')), so intervals are placed from S_1 on and the state after
/// placing I_j = [d, i] on the list B is (i, used processors U, B, the partial times p_r = in_j(r) + W(d, i) /
/// s_{B[r]}): the future depends on nothing else. I_j's own T_j = max_r (p_r + out_j(r)) / R is final when I_{j+1} is
/// chosen. Every time is computed with the model's operations, so the production time of a leaf is bit-identical to
/// hedpm_production_time of its mapping.
/// - Children: (end e, replica count k, list C of free processors); one replica first, tightest fit first (the
///   largest lower bound on t that fits); k >= 2 only for e = i + 1 unless intervals may be replicated. A replica is
///   kept only if (p'_r + out) / k <= T, out exact towards P_out, else the cheapest link; B's T_j must stay <= T (its
///   sums are bounded while C is built, with the cheapest links for the positions left).
/// - Lists as sets: when gcd(k, R_B) = 1, C's in-terms and B's out-terms are means over all partners, and the model's
///   means do not depend on the order of their values: C is enumerated once as a set (in order_'s rank order) and
///   stored with `free_order`. Only when a later child D has gcd(R_C, R_D) > 1 does C's order matter: then every
///   order of C is tried with D.
/// - Dominance: a state that fails with partial times p fails with every p' >= p (componentwise): per (i, U, B,
///   free_order) the failed vectors are memorised (the least failed p when R = 1, a few vectors otherwise; lists of
///   more than 7 replicas are not memorised). Failures stay valid as T drops (docs/exact.md, "Memorised failures").
/// - Cuts (CompletionBounds): the processors needed by the stages left (need) and the work shares they can take (cap)
///   must fit the free processors, at each state and for each child (each replica of C removes its cap); W / T must
///   fit the free speeds; in + W / s grows with e, so when no free processor takes S_{i+1}..S_e alone, longer
///   intervals are not tried with one replica.
/// Complexity: exponential (up to sum_k C(p, k) k! children per state and (n + 1) 2^p sum_k C(p, k) k! states); in
/// practice the bounds keep few alive (docs/hedpm.md: N = 30, P = 12 with heterogeneous links in well under a
/// second of CPU time).
class GeneralSearch final : public Search {
public:
  GeneralSearch(const Problem& problem, HedpmSpace space);
  Outcome minimize(double upper, const Deadline& deadline) override;

private:
  struct State {
    int i              = 0;
    std::uint64_t used = 0;
    std::vector<int> list;       // B: the last interval's replicas ({P_in} at the root)
    std::vector<double> partial; // p_r (empty at the root)
    double fixed    = 0;         // largest final T_j of the intervals before B
    bool free_order = true;      // B's order does not change its times so far: kept in order_'s rank order
  };
  struct Child { // the list being built
    int e           = 0;
    int k           = 0;
    double work     = 0;
    bool free_order = false;      // a set: in-terms and B's out-terms do not depend on the order (gcd(k, R_B) = 1)
    double room     = 0;          // caps of the free processors at e minus the work after e, less the chosen ones' caps
    std::vector<double> in_times; // (r mod gcd(k, R_B)) * p + v -> in-term of v at position r
    std::vector<double> sent;     // per replica of B: transfers to the positions chosen so far that it deals with
    std::vector<int> list;
    std::vector<double> partial;
    std::uint64_t chosen = 0;
  };

  struct Single { // a child with one replica
    int e          = 0;
    int v          = 0;
    double partial = 0; // in + W / s_v
    double lower   = 0; // partial + the cheapest out: a lower bound on its t
  };

  /// The children with one replica that pass the bounds, tightest first.
  std::vector<Single> singles(const State& state, double capacity, int free) const;
  exact::Walk dfs(const State& state);
  /// Children of `k` replicas for S_{i+1}..S_e; `in_cache` keeps fill_in_times per gcd(k, R_B) for the state.
  exact::Walk replicate(const State& state, int e, int k, std::vector<std::vector<double>>& in_cache);
  void fill_in_times(const State& state, Child& child) const;
  /// Adds v at `position` to B's sums; false if B's times can no longer reach the bound (cheapest links for the
  /// positions left).
  bool previous_fits(const State& state, Child& child, int position, int v) const;
  exact::Walk extend(const State& state, Child& child, int position);
  exact::Walk close(const State& state, Child& child);
  bool memo_fails(const State& state) const;
  void memo_store(const State& state);

  const Problem& problem_;
  HedpmSpace space_;
  int n_ = 0;
  int p_ = 0;
  std::vector<int> order_; // processors by decreasing speed (then index): the order children are tried
  std::vector<int> rank_;  // processor -> its position in order_
  CompletionBounds bounds_;
  double bound_ = 0;
  exact::FailedStates failed_; // lists of one replica: the least failed partial time, stored negated
  struct ListKey {
    std::uint64_t used;
    std::uint64_t key;
    bool operator==(const ListKey&) const = default;
  };
  struct ListKeyHash {
    std::size_t operator()(const ListKey& k) const
    {
      std::uint64_t h = (k.used ^ (k.key * 0x9e3779b97f4a7c15ULL)) * 0xbf58476d1ce4e5b9ULL;
      return static_cast<std::size_t>(h ^ (h >> 31));
    }
  };
  // lists of several replicas: failed partial vectors one after the other (a cache, cleared when too large)
  std::unordered_map<ListKey, std::vector<double>, ListKeyHash> failed_lists_;
  Path path_;
  Outcome best_;
  DeadlinePoll poll_;
  const Deadline* deadline_ = nullptr;
};

} // namespace pipesim::hedpm_exact
