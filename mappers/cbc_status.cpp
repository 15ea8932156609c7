#include "mappers/cbc_status.hpp"

namespace pipesim {

CbcSolve cbc_solve(Cbc_Model* model, double time_limit)
{
  Cbc_setLogLevel(model, 0);
  Cbc_setAllowableGap(model, 0);
  Cbc_setAllowableFractionGap(model, 0);
  Cbc_setMaximumSeconds(model, time_limit);
  const Deadline deadline(time_limit); // CBC stops itself; the deadline only tells whether it used its time up
  Cbc_solve(model);
  return CbcSolve{time_limit, deadline.elapsed()};
}

SolveStatus cbc_solve_status(Cbc_Model* model, const CbcSolve& solve, bool found)
{
  if (Cbc_isProvenOptimal(model) != 0 && found) return SolveStatus::optimal;
  if (Cbc_isProvenInfeasible(model) != 0 && solve.seconds < solve.time_limit) return SolveStatus::infeasible;
  return SolveStatus::time_limit;
}

} // namespace pipesim
