// The working state of bbr10's reliability heuristics (§6.2-§6.3): subsets of stages, each on its own set of
// processors, and the test "this processor can join that subset without breaking P_max".
#pragma once

#include "mappers/bbr10/all_alive_period.hpp"
#include "mappers/mapper.hpp"
#include "model/bbr10/worst_case_period.hpp"

#include <memory>
#include <optional>
#include <vector>

namespace pipesim {

/// Contract.
/// - What it holds: a partition of (some of) the stages 1..n into subsets; the maximal runs of consecutive stages of a
///   subset are its intervals (bbr10 §3.4); each subset has a set of processors, disjoint from the other subsets'
///   (the heuristics never share a processor), and every interval of the subset is actively replicated on all of
///   them. Stages of no subset (class 2 assigns stages one by one) form intervals without processors.
/// - The period test (docs/bbr10-periods.md, "Period bound of the reliability heuristics"): the mapping's worst-case
///   period bound `bbr10_worst_case_upper_bound` (bbr10 eq. (1) generalised; >= pipesim's worst-case period, equal
///   to eq. (1) on interval mappings) must stay <= P_max. It is a maximum over processors of per-processor terms
///   (compute, input card, output card, one per link), and each term only grows when a processor joins a subset, so
///   `fits(u, k)` checks only the processors whose terms change: u, and the processors of the subsets that send to
///   or receive from subset k. On a partial state an interval without processors neither sends nor receives (its
///   neighbours' terms will be checked when it gets processors), but its input still loads its card. This is the
///   same formula as bbr10_worst_case_upper_bound, incremental and per subset; mapping() of a complete state gives a
///   mapping on which the two agree (subset_state_test.cpp); both evaluate the terms with bbr10_processor_bound.
/// - The paper's period test (PeriodTest::all_alive_best_election, docs/bbr10-reliability.md): every processor
///   alive, the best of the four elections (bbr10_all_alive_period on partial_mapping()) <= P_max. The worst-case
///   bound's incremental argument does not carry over: a joining processor can take sends over from the others and
///   lower the period, and a change of one subset's replicas changes the greedy elections of every interval. What
///   still holds is used first: u's compute and input-card terms are the same in every election and only grow
///   (u is refused on them without an election), and the worst-case bound of the whole state dominates every
///   configuration and election (u is accepted when it holds, without an election). Otherwise the state is
///   evaluated whole: four elections and four Algorithm 1 evaluations (bbr10_all_alive_period's cost).
/// - Tolerance: a term t passes when t <= P_max (1 + 1e-12).
/// - Failure probability: a subset fails when all its processors do, prod f_u (1 without processors); F = 1 - prod_k
///   (1 - prod_{u in k} f_u), bbr10 eq. (2) (bbr10_eq2_failure_probability on mapping()).
class SubsetState {
public:
  /// `seed` seeds the Random election of the paper's test (unused by the worst-case test).
  SubsetState(const Problem& problem, double period_bound, PeriodTest test = PeriodTest::worst_case,
              std::uint64_t seed = 1);

  /// Replaces the stage partition (subset index by stage 1..n, -1: no subset; `subsets` subsets, some possibly
  /// empty) and drops every processor.
  void set_partition(const std::vector<int>& subset_of_stage, int subsets);
  /// Moves stage `stage` to subset k (-1: none), keeping every processor where it is.
  void set_stage(int stage, int k);
  int subsets() const { return static_cast<int>(stages_.size()); }
  /// The subsets that have at least one stage, by index.
  std::vector<int> live_subsets() const;
  const std::vector<int>& stages(int k) const { return stages_[static_cast<std::size_t>(k)]; }
  const std::vector<int>& processors(int k) const { return procs_[static_cast<std::size_t>(k)]; }
  bool used(int u) const { return owner_[static_cast<std::size_t>(u)] >= 0; }
  std::vector<int> unused() const;

  double work(int k) const;        // sum of w_i over the subset's stages
  double output_data(int k) const; // sum of delta_{e_j} over the subset's intervals

  /// u's cycle-time if it joined subset k (u unused): its largest worst-case term, or under the paper's test its
  /// cycle-time in the best election.
  double cycle_time_with(int u, int k);
  /// Whether u (unused) can join subset k with the state's period test still <= P_max.
  bool fits(int u, int k);
  /// cycle_time_with(u, k) when fits(u, k), nothing otherwise (one evaluation under the paper's test).
  std::optional<double> fitting_cycle_time(int u, int k);
  /// u's largest worst-case term if it joined subset k, an upper bound of its cycle-time in any configuration and
  /// election; nothing when u's compute or input-card term (the same in every election) is above P_max.
  std::optional<double> cycle_time_bound(int u, int k);
  void add(int u, int k);
  void remove(int u);
  /// Merges subset `from` into `into` (stages only; `from`'s processors become unused; `from` is left empty).
  void merge_stages(int into, int from);

  double subset_failure(int k) const;
  double failure_probability() const;
  /// Every stage is in a subset that has a processor.
  bool complete() const;
  /// The largest term over the used processors (the worst-case bound of the current state, whatever the test).
  double period_bound() const;
  /// The period the state's test compares with P_max: period_bound(), or the paper's all-alive best election.
  double period() const;
  PeriodTest period_test() const { return test_; }
  /// Intervals in stage order, each with its subset's processors (none for stages of no subset or a subset without
  /// processors): the input of bbr10_all_alive_period.
  Mapping partial_mapping() const;
  /// Precondition: complete(). Intervals in stage order, each with its subset's processors as replicas.
  Mapping mapping() const;

  const Problem& problem() const { return *problem_; }

private:
  struct Run { // an interval: stages [first, last] of subset k (-1: no subset)
    int first, last, k;
  };
  void rebuild();
  double terms(int u) const; // largest term of processor u in its subset
  bool within(double t) const { return t <= bound_ * (1 + 1e-12); }
  bool neighbours_fit(int k) const;
  bool fits_all_alive(int u, int k, bool worst_case_held); // precondition: u attached to k
  bool election_free_terms_fit(int u, int k) const;        // u's compute and input card, u attached to k
  void attach(int u, int k); // add and remove without a new version: the probes of fits and cycle_time_with
  void detach(int u);
  double cached_period_bound() const;       // period_bound() of the current version
  AllAliveEvaluator& all_alive() const;     // loaded with partial_mapping()
  std::vector<int> neighbours(int k) const; // subsets holding an interval next to one of k's

  const Problem* problem_;
  double bound_;
  PeriodTest test_;
  std::uint64_t seed_;
  std::vector<int> subset_of_stage_; // 1..n (index 0 unused)
  std::vector<std::vector<int>> stages_;
  std::vector<std::vector<int>> procs_;
  std::vector<int> owner_; // by processor: subset or -1
  std::vector<Run> runs_;
  std::vector<std::vector<int>> runs_of_;                          // by subset: indices into runs_
  mutable std::vector<std::pair<int, double>> in_link_, out_link_; // terms()'s scratch: bytes per subset
  mutable ProcessorLoad load_;                                     // terms()'s scratch: bytes per node
  mutable std::shared_ptr<AllAliveEvaluator> evaluator_;           // the paper's test's buffers (shared by copies)
  long long version_               = 0;                            // bumped by every change of the state
  mutable long long bound_version_ = -1;
  mutable double bound_cache_      = 0;
  mutable std::vector<int> sorted_; // all_alive()'s scratch
};

} // namespace pipesim
