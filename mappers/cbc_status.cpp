#include "mappers/cbc_status.hpp"

#include <chrono>

namespace pipesim {

CbcSolve cbc_solve(Cbc_Model* model, double time_limit)
{
  Cbc_setLogLevel(model, 0);
  Cbc_setAllowableGap(model, 0);
  Cbc_setAllowableFractionGap(model, 0);
  Cbc_setMaximumSeconds(model, time_limit);
  auto start = std::chrono::steady_clock::now();
  Cbc_solve(model);
  std::chrono::duration<double> elapsed = std::chrono::steady_clock::now() - start;
  return CbcSolve{time_limit, elapsed.count()};
}

SolveStatus cbc_solve_status(Cbc_Model* model, const CbcSolve& solve, bool found)
{
  if (Cbc_isProvenOptimal(model) != 0 && found) return SolveStatus::optimal;
  if (Cbc_isProvenInfeasible(model) != 0 && solve.seconds < solve.time_limit) return SolveStatus::infeasible;
  return SolveStatus::time_limit;
}

} // namespace pipesim
