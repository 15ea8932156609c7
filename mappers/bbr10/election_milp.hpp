// bbr10 §5: the mixed integer linear program of the minimum period over elections, solved with COIN-OR CBC.
#pragma once

#include "mappers/mapper.hpp"
#include "model/bbr10/best.hpp"
#include "model/bbr10/election.hpp"

namespace pipesim {

struct MilpElection {
  ElectionChoice choice; // the election read from x and its bbr10_period (method "milp"); empty if none
  SolveStatus status = SolveStatus::time_limit;
  double cbc_period  = 0; // CBC's objective P (carries CBC's tolerances)
  double cbc_bound   = 0; // CBC's best bound
  int variables      = 0;
  int constraints    = 0;
  int nodes          = 0;
};

/// Contract.
/// - Source: bbr10 §5, the MILP of CONSENSUS (Definition 1) for a mapping and a failure configuration, per
///   interval (only the last stage of an interval sends remotely, so x_{i,u} of the other stages does not enter any
///   constraint). With alive_j the alive replicas of I_j and R_j its receivers (ElectionInstance: the alive
///   replicas of I_{j+1} not holding I_j, bbr10's Delta_{i+1,v}(1 - Delta_{i,v}); P_out for I_m):
///     variables  x_{j,u} in {0, 1} for u in alive_j (u sends I_j's output), P >= 0;
///     (elect)    for all j: sum_{u in alive_j} x_{j,u} = 1;
///     (compute)  P >= sum_{I_j held by u} w(I_j) / s_u for every alive u, and P >= the P_in input terms (constant);
///     (link)     for every ordered pair (u, v) and every j with u in alive_j, v in R_j:
///                  c_{u,v} x_{j,u} + sum_{k: u in alive_k, v in R_k} delta_{e_k} / b_{u,v} x_{k,u} <= P
///                (one pair carries both u's output and v's input term; the paper writes them apart);
///     (Bout)     for every u and every j with u in alive_j, R_j not empty:
///                  max_{v in R_j} c_{u,v} x_{j,u} + sum_k |R_k| delta_{e_k} / Bout_u x_{k,u} <= P;
///     (Bin)      for every receiver u and every transfer (j, v in alive_j) reaching it:
///                  c_{v,u} x_{j,v} + (bytes u receives) / Bin_u <= P;
///   objective: minimise P. With c = 0 the per-j rows of (link) and (Bout) coincide and this is the paper's program;
///   with latencies each row forces the latency only when a transfer uses the resource, as Algorithm 1 does.
/// - Accepts: what bbr10_period accepts (active replication, single processors), any platform class.
/// - Solver: CBC (C interface), log level 0, absolute and relative gaps 0, time limit `time_limit` seconds.
/// - Complexity: NP-complete (bbr10 Theorem 1); sum_j |alive_j| binaries, O(sum_j |alive_j| |R_j|) rows.
/// - Returns: the election read from x (the u with x_{j,u} > 1/2) and its Algorithm 1 period (not CBC's P);
///   status `optimal` when CBC proves it, `time limit` when the time runs out (with the best election found, or
///   none), `feasible` when CBC stops otherwise with an election. Throws InputError when an interval has no
///   alive replica.
MilpElection bbr10_milp_election(const Pipeline& pipeline, const Platform& platform, const Mapping& mapping,
                                 const FailureConfiguration& config, double time_limit = 60);

/// bbr10_milp_election as an ElectionFunction (e.g. for bbr10_worst_case_period); throws InputError unless CBC
/// proves the election optimal within `time_limit`.
ElectionFunction bbr10_milp_election_function(double time_limit = 60);

} // namespace pipesim
