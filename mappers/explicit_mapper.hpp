// The `explicit` mapper: passes the mapping a scenario gives (Problem::explicit_mapping) through, evaluated.
#pragma once

#include "mappers/mapper.hpp"

namespace pipesim {

/// Contract.
/// - Source: none (the user's mapping); the objective value comes from model/analytic.hpp: the period of
///   analyze_oneport (br07 eqs. (1)-(5), one-port active replication) or, under the multi-port model,
///   analyze_multiport (bbr10 Algorithm 1) for min_period; bbr10 eq. (2) (bbr10_eq2_failure_probability) for
///   min_failure_probability. statistics["period"] holds the period in both cases.
/// - Accepts: every platform class, model and objective, as long as the problem carries an explicit mapping
///   (refuses otherwise).
/// - Complexity: that of validate() and of the analytic evaluation.
/// - Returns: the mapping unchanged, status `feasible` (nothing is optimised); throws InputError when the
///   mapping is malformed (validate()). With min_failure_probability the period bound is not enforced: the
///   statistic "period_bound_met" says whether the one-port period is within it.
class ExplicitMapper : public Mapper {
public:
  MapperInfo info() const override;
  MapperResult map(const Problem& problem, const MapperOptions& options) const override;
};

} // namespace pipesim
