// sv95's tasks as programs: flops per processor, redistribution matrices, f_exec (program.hpp).
#include "model/sv95/program.hpp"

#include <algorithm>

namespace pipesim {

CostFunction program_exec(const TaskProgram& program, double speed)
{
  return CostFunction::polynomial(program.sequential / speed, program.parallel / speed, program.overhead / speed);
}

std::vector<double> redistribution_bytes(const TaskProgram& program, int ps, int pr)
{
  const auto cells = static_cast<std::size_t>(ps) * static_cast<std::size_t>(pr);
  std::vector<double> bytes(cells, 0.0);
  const double unit = program.output / static_cast<double>(cells); // bytes of 1 / (ps pr) of the output
  for (int i = 0; i < ps; ++i)
    for (int j = 0; j < pr; ++j) {
      double& b = bytes[static_cast<std::size_t>(i) * static_cast<std::size_t>(pr) + static_cast<std::size_t>(j)];
      if (program.distribution == Distribution::transpose) {
        b = unit;
        continue;
      }
      // in units of 1 / (ps pr): sender i holds [i pr, (i + 1) pr), receiver j holds [j ps, (j + 1) ps)
      long overlap = std::min<long>((i + 1L) * pr, (j + 1L) * ps) -
                     std::max<long>(static_cast<long>(i) * pr, static_cast<long>(j) * ps);
      if (overlap > 0) b = static_cast<double>(overlap) * unit;
    }
  return bytes;
}

std::vector<double> internal_redistribution_bytes(const TaskProgram& program, int p)
{
  std::vector<double> bytes = redistribution_bytes(program, p, p);
  for (std::size_t i = 0; i < static_cast<std::size_t>(p); ++i)
    bytes[i * static_cast<std::size_t>(p) + i] = 0;
  return bytes;
}

} // namespace pipesim
