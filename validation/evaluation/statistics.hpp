// Confidence intervals for the Monte Carlo survival rates of failure campaigns (DESIGN.md §3.5).
#pragma once

namespace pipesim {

/// A two-sided confidence interval [low, high] for a proportion.
struct ProportionInterval {
  double low  = 0;
  double high = 1;
};

/// Two-sided normal quantiles: z = 1.96 for 95 %, 2.576 for 99 %.
inline constexpr double z_95 = 1.96;
inline constexpr double z_99 = 2.576;

/// Wilson score interval for a binomial proportion (Wilson, JASA 1927): with p = successes / trials and
/// n = trials, center (p + z^2/(2n)) / (1 + z^2/n), half-width z / (1 + z^2/n) sqrt(p(1-p)/n + z^2/(4n^2)).
/// Unlike the normal (Wald) interval it stays inside [0, 1] and is not empty at 0 or n successes; low is exactly 0
/// when successes = 0 and high exactly 1 when successes = trials. Zero trials give [0, 1]. Throws InputError
/// unless 0 <= successes <= trials and z > 0.
ProportionInterval wilson_interval(long long successes, long long trials, double z = z_95);

} // namespace pipesim
