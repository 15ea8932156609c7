// Seeded tiny instances of sv95's mapping problem, shared by the sv95 mappers' tests.
#pragma once

#include "mappers/mapper.hpp"
#include "model/sv95/task_chain.hpp"

#include <cstdint>
#include <string>

namespace pipesim::fixtures {

/// The problem of `chain` on P processors: a fully homogeneous platform, one pipeline stage per task (w = delta = 0).
Problem sv95_problem(TaskChain chain, int P);

/// A tiny instance (k <= 4, P <= 10) drawn from `seed`. One seed in four builds an instance where replication
/// changes a module's processors per instance (a replicable sender whose receiver pays f_ecom's C2 / ps term, or
/// p_min not dividing the processors); the others mix polynomials (integer coefficients, so that ties happen),
/// tables (some ending before P), memory needs, input/output times and non-replicable tasks.
struct Sv95Instance {
  TaskChain chain;
  int P              = 1;
  std::uint64_t seed = 0;
  /// The instance as text, printed by failing tests.
  std::string describe() const;
};
Sv95Instance sv95_tiny_instance(std::uint64_t seed);

} // namespace pipesim::fixtures
