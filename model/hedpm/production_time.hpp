// HeDPM's production-time model (hedpm §3, eqs. (1)-(2)) on a concrete interval mapping with deal replicas.
#pragma once

#include "model/mapping.hpp"
#include "model/pipeline.hpp"
#include "platforms/platform.hpp"

#include <span>
#include <vector>

namespace pipesim {

// Which links enter t(n, p) on a concrete mapping (docs/hedpm.md, "The model on a mapping"):
// - t(u) of replica r (processor u) of interval I_j = [d, e] with R_j replicas is
//   (in_j(r) + W(d, e) / s_u) + out_j(r): hedpm eq. (3) with the platform's own c and B instead of the means, the
//   stages of a gathered interval summed without their internal transfers (eq. (2)).
// - in_j(r): the mean, over the replicas r' of I_{j-1} that deal data sets to r, of c_{v,u} + delta_{d-1} / b_{v,u}
//   (v their processor). Data set k goes from replica k mod R_{j-1} to replica k mod R_j (DESIGN.md §3.7), so r
//   receives from the r' with r' = r (mod gcd(R_{j-1}, R_j)), each equally often: the mean is the time r spends
//   receiving per data set. I_0 is P_in (one replica).
// - out_j(r): the same with the replicas of I_{j+1} that r sends to, delta_e; I_{m+1} is P_out.
// - T_j = max_r t(r) / R_j (eq. (1): order is preserved, the slowest replica sets the pace, one data set in R_j);
//   the predicted production time is max_j T_j (the slowest stage, hedpm §3).

/// Mean of values, written x_0 + (sum_{k>0} (x_k - x_0)) / K over the values sorted in increasing order: exactly x
/// when all values are x, so links that are all equal give the same bits whatever the replica counts, and the same
/// bits whatever the order of the values (the exact mappers rely on both). Infinite when a value is.
/// Complexity: O(K log K) for K values (sorted); hedpm_in_time and hedpm_out_time, O(R log R) for the R replicas
/// they average over; hedpm_predict, O(n + sum_j R_j (R_{j-1} + R_{j+1}) log R).
double hedpm_mean(std::span<const double> values);

/// in_j(r): receive part of t(u) for replica r of `self` from the dealt replicas of `prev` (processor indices, or
/// {platform.in()} for the first interval). `bytes` is delta_{d-1}.
double hedpm_in_time(const Platform& platform, std::span<const int> prev, std::span<const int> self, int r,
                     double bytes);

/// out_j(r): send part of t(u) for replica r of `self` to the replicas of `next` it deals to ({platform.out()} for
/// the last interval). `bytes` is delta_e.
double hedpm_out_time(const Platform& platform, std::span<const int> self, int r, std::span<const int> next,
                      double bytes);

/// t(n, p) of one replica: (in + W / s_u) + out, in this order of operations everywhere.
inline double hedpm_replica_time(double in, double work, double speed, double out) { return (in + work / speed) + out; }

/// Eq. (1): tReplica = max_r t(r) / R (R = replica_times.size() >= 1).
double hedpm_interval_time(std::span<const double> replica_times);

/// T_j of interval [first, last] on the ordered replicas `self`, between `prev` and `next` (see above).
double hedpm_interval_time(const Pipeline& pipeline, const Platform& platform, int first, int last,
                           std::span<const int> prev, std::span<const int> self, std::span<const int> next);

/// What the model predicts for each interval and for the mapping.
struct HedpmIntervalPrediction {
  std::vector<double> replica_times; // t(r) for each replica, in the mapping's order
  double time = 0;                   // T_j, eq. (1)
};
struct HedpmPrediction {
  std::vector<HedpmIntervalPrediction> intervals;
  double production_time = 0; // max_j T_j
  int bottleneck         = 0; // the first interval j with T_j = production_time
};

/// HeDPM's prediction for an interval mapping: one processor per replica, any number of deal replicas per interval
/// (gathered intervals too). Throws InputError for general mappings, data-parallel groups and active replication
/// (an interval with several replicas that is not dealt), after validate().
HedpmPrediction hedpm_predict(const Pipeline& pipeline, const Platform& platform, const Mapping& mapping);

/// hedpm_predict(...).production_time.
double hedpm_production_time(const Pipeline& pipeline, const Platform& platform, const Mapping& mapping);

} // namespace pipesim
