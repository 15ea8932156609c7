// The communication models of DESIGN.md §3.1-3.2, shared by the evaluators, the mappers and the simulator.
#pragma once

#include "base/enum_names.hpp"

namespace pipesim {

enum class CommModel {
  one_port,  // br07: a processor does one thing at a time, no overlap (DESIGN.md §3.1)
  multi_port // bbr10: bounded multi-port with overlap, network cards Bin/Bout (DESIGN.md §3.2)
};
PIPESIM_ENUM_NAMES(CommModel, {one_port, "one-port"}, {multi_port, "multi-port"});

} // namespace pipesim
