// The integer linear program of br07 §6.1 (optimal interval mapping), solved with COIN-OR CBC.
#pragma once

#include "mappers/mapper.hpp"

namespace pipesim {

/// Contract (mapper `br07.ilp`).
/// - Source: br07 §6.1 "Linear program formulation", written for Fully Heterogeneous platforms, so it
///   accepts every class. Nodes: the processors P_1..P_p plus P_in and P_out; fictitious stages S_0 on P_in and
///   S_{n+1} on P_out. Sums over u run over [1..p] u {in, out} unless said otherwise.
///   Variables (all boolean except first, last integer in [1, n] and T rational):
///     x_{k,u}   (k in [0..n+1])      S_k is on P_u; x_{0,in} = x_{n+1,out} = 1, x_{k,in} = x_{k,out} = 0 for
///                                    1 <= k <= n;
///     z_{k,u,v} (k in [0..n], u != v) S_k on P_u and S_{k+1} on P_v; z_{k,in,v} = 0 for k != 0 and
///                                    z_{k,u,out} = 0 for k != n;
///     y_{k,u}   (k in [0..n])        S_k and S_{k+1} both on P_u; y_{k,in} = y_{k,out} = 0, y_{0,u} = y_{n,u} = 0;
///     first_u, last_u (u in [1..p])  P_u holds the interval [first_u, last_u];
///     T_period.
///   Constraints:
///     (a) for all k in [0..n+1]: sum_u x_{k,u} = 1;
///     (b) for all k in [0..n]: sum_{u != v} z_{k,u,v} + sum_u y_{k,u} = 1;
///     (c) for all k in [0..n], u != v: x_{k,u} + x_{k+1,v} <= 1 + z_{k,u,v};
///     (d) for all k in [0..n], u: x_{k,u} + x_{k+1,u} <= 1 + y_{k,u};
///     (e) for all k in [1..n], u in [1..p]: first_u <= k x_{k,u} + n (1 - x_{k,u}) and last_u >= k x_{k,u};
///     (f) for all k in [1..n-1], u != v in [1..p]: last_u <= k z_{k,u,v} + n (1 - z_{k,u,v}) and
///         first_v >= (k + 1) z_{k,u,v};
///     (g) for all u in [1..p]: sum_{k=1}^{n} ( sum_{t != u} delta_{k-1}/b_{t,u} z_{k-1,t,u} + w_k/s_u x_{k,u} +
///         sum_{v != u} delta_k/b_{u,v} z_{k,u,v} ) <= T_period.
///   Objective: minimise T_period. O(n p^2) variables and constraints.
///   Extension (documented in docs/exact.md): pipesim links have a latency c_{u,v} (DESIGN.md §1), so the
///   coefficients of z in (g) are the transfer times c_{t,u} + delta_{k-1}/b_{t,u} and c_{u,v} + delta_k/b_{u,v}
///   (Platform::transfer_time); with c = 0 this is the paper's program exactly.
/// - Accepts: the one-port model, objective min_period, every platform class, at most 2e6 variables.
/// - Solver: CBC (C interface), log level 0, absolute and relative gaps 0, time limit options.time_limit.
/// - Complexity: exponential (branch and cut); the paper reports up to 14 hours for n = 4, p = 8 (§6.2.1).
/// - Returns: the mapping read from x (stage k on the P_u with x_{k,u} > 1/2) and its br07 eq. (2) period
///   (br07_eq2_period, not CBC's T_period, which carries CBC's tolerances); status `optimal` when CBC proves it,
///   `time limit` when the time runs out (with the best mapping found, or none), `infeasible` when CBC proves the
///   program infeasible (cannot happen for a valid problem), `feasible` when CBC stops otherwise with a mapping.
///   Statistics: "variables", "constraints", "cbc_nodes", "cbc_period" (T_period) and "cbc_bound" (best bound).
class Br07Ilp : public Mapper {
public:
  MapperInfo info() const override;
  MapperResult map(const Problem& problem, const MapperOptions& options) const override;

protected:
  std::optional<std::string> instance_refusal(const Problem& problem) const override;
};

} // namespace pipesim
