#pragma once
// Solving with COIN-OR CBC and reading its status, shared by the integer programs of the mappers (br07.ilp, the
// bbr10 election MILP).
#include "mappers/mapper.hpp"
#include <Cbc_C_Interface.h>

namespace pipesim {

struct CbcSolve {
  double time_limit = 0; // seconds, as asked
  double seconds    = 0; // wall-clock time of Cbc_solve
};

// Solves to a zero gap, silently, within `time_limit` seconds.
CbcSolve cbc_solve(Cbc_Model* model, double time_limit);

// `found`: the caller read a complete solution from Cbc_bestSolution. CBC 2.10 misreports a solve its time limit
// stopped: when the limit strikes inside the root LP it says "finished, relaxation infeasible" (about 1 run in 50 of
// br07_ilp_test's 1 ms limit), and it does not always raise its seconds-limit flag during the root heuristics. Both
// of pipesim's programs always have a solution, so an unproven or infeasible status from a solve that used up its
// time is `time_limit`; infeasible is reported only from a solve that ended before its limit.
SolveStatus cbc_solve_status(Cbc_Model* model, const CbcSolve& solve, bool found);

} // namespace pipesim
