// HeDPM's times on the average processor, the average stage and the ideal production time (hedpm eqs. (3)-(6)).
#pragma once

#include "model/pipeline.hpp"
#include "platforms/platform.hpp"

#include <span>

namespace pipesim {

/// Arithmetic means of set-up times and bandwidths, c̄ and B̄ (hedpm Table 1: c(p_i, p_j), B(p_i, p_j)).
struct HedpmMeanLink {
  double c = 0;
  double b = unbounded;
};

/// c̄ + bytes / B̄: a transfer on the mean link, as eqs. (3), (4) and (6) write it.
inline double hedpm_transfer(HedpmMeanLink link, double bytes) { return link.c + bytes / link.b; }

/// c̄ and B̄ over the ordered pairs (u, v), u != v, of `processors`; with fewer than two processors, over the links
/// P_in -> u and u -> P_out of the processors given (the pipeline's own transfers). Precondition: non-empty.
/// Complexity: O(q^2) for q processors; the other functions of this file are O(q) or O(stages + q) (eq. (6)).
HedpmMeanLink hedpm_mean_link(const Platform& platform, std::span<const int> processors);

/// c̄ and B̄ of the links from `others` to u (`incoming`) or from u to `others`: the link to the processor of an
/// unknown neighbour stage. With no other processor, the link P_in -> u (incoming) or u -> P_out.
HedpmMeanLink hedpm_mean_link_of(const Platform& platform, int u, std::span<const int> others, bool incoming);

/// Mean speed s̄ of `processors` (non-empty).
double hedpm_mean_speed(const Platform& platform, std::span<const int> processors);

/// Eq. (3): t(n, p̄) = [c̄ + d(n-1)/B̄] + [w(n)/s̄] + [c̄ + d(n)/B̄], stage n on the average processor (d(n) is
/// delta_n, d(0) = delta_0 comes from P_in).
double hedpm_eq3_stage_time(const Pipeline& pipeline, int n, double s_mean, HedpmMeanLink link);

/// Eq. (4): t(n̄, p) = [c(p-1, p) + d̄/B(p-1, p)] + [w̄/s(p)] + [c(p, p+1) + d̄/B(p, p+1)], the average stage on
/// processor p, where the processors of the previous and next stages are unknown: `in` and `out` are the mean
/// links of p (hedpm_mean_link_of).
double hedpm_eq4_processor_time(double speed, double w_mean, double d_mean, HedpmMeanLink in, HedpmMeanLink out);

/// Eq. (5): sa = (P / N) s̄, the mean available processor speed per stage.
double hedpm_eq5_sa(int processors, int stages, double s_mean);

/// Eq. (6): Tideal = c̄ + d̄/B̄ + w̄/sa + c̄ + d̄/B̄ for the stages and processors not matched yet: w̄ and d̄ (the output
/// sizes delta_n) are means over `stages` (1-based), s̄, c̄ and B̄ over `processors` (hedpm_mean_link; when one
/// processor is left, the means of the whole platform's processors). Preconditions: both non-empty.
double hedpm_eq6_ideal_time(const Pipeline& pipeline, const Platform& platform, std::span<const int> stages,
                            std::span<const int> processors);

} // namespace pipesim
