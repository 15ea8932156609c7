// SimGrid's --cfg= and --log= arguments, checked before a run: SimGrid 3.32 aborts on some bad ones (an unknown model
// or log control string: SIGABRT) and throws on others with a message that does not name the argument.
#pragma once

#include <optional>
#include <string>

namespace pipesim {

/// What is wrong with one SimGrid argument, or nullopt when SimGrid 3.32 takes it. The argument must start with
/// --cfg= or --log=; it is then tried in a child process, which starts a SimGrid engine with it alone, builds a
/// one-host platform (so the model options are read) and runs it: what SimGrid threw, or the message it printed
/// before it aborted, is the answer (its first line, without SimGrid's "[time] file:line: [cat/CRITICAL]" prefix).
/// A few numeric options SimGrid takes without a check and that would hang a run or corrupt its figures are
/// checked here first: surf/precision and maxmin/precision (> 0), network/TCP-gamma, network/latency-factor,
/// network/bandwidth-factor, network/weight-S, contexts/stack-size, contexts/guard-size (finite, >= 0).
/// Complexity: one fork and one SimGrid start per argument (a few ms).
std::optional<std::string> simgrid_argument_error(const std::string& arg);

} // namespace pipesim
