// What a processor does with a data set: the steps of the one-port programs and the events of simulation traces.
#pragma once

#include "base/enum_names.hpp"

namespace pipesim {

enum class Operation { receive, compute, send };
PIPESIM_ENUM_NAMES(Operation, {receive, "receive"}, {compute, "compute"}, {send, "send"});

} // namespace pipesim
