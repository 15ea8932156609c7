// sv95's tasks as programs (DESIGN.md §3.8): the flops each processor of an instance executes, the bytes a
// redistribution moves between processors, and the execution time f_exec that follows exactly on identical
// processors. The simulator (simulator/program_actors.hpp) runs them as SimGrid parallel tasks.
#pragma once

#include "model/sv95/task_chain.hpp"

#include <vector>

namespace pipesim {

/// f_exec of `program` on processors of speed `speed` (flop/s): §5's polynomial (sequential / s) + (parallel / s) / p
/// + (overhead / s) p. Exact on identical processors (up to rounding), where a parallel task of flops_per_host(p)
/// flops on each of p hosts takes flops_per_host(p) / s.
CostFunction program_exec(const TaskProgram& program, double speed);

/// The bytes sender i (of ps) sends to receiver j (of pr) when `program`'s output moves from ps processors to pr
/// other processors, row-major [i * pr + j]. block: the output is cut into ps equal contiguous blocks on the senders
/// and pr on the receivers, and i sends j the overlap of their blocks (computed in whole units of 1 / (ps pr), so
/// ps == pr is exactly the identity); transpose: output / (ps pr) from every sender to every receiver.
/// Complexity: O(ps pr) (the matrix).
std::vector<double> redistribution_bytes(const TaskProgram& program, int ps, int pr);

/// The redistribution between two tasks of one instance on the same p processors, p x p row-major: as
/// redistribution_bytes(program, p, p) with the diagonal set to 0 (a processor's own part does not move). A block
/// output moves nothing; a transpose sends output / p^2 to each other processor.
std::vector<double> internal_redistribution_bytes(const TaskProgram& program, int p);

} // namespace pipesim
