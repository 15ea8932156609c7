// SimGrid's --cfg= and --log= arguments, checked before a run: SimGrid 3.32 aborts on some bad ones (an unknown model
// or log control string: SIGABRT) and throws on others with a message that does not name the argument.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

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

/// The arguments pipesim adds, in a run that sets link bandwidths once the platform is built (exact-mode scaling,
/// link edits), so that SimGrid can run with the user's `user` ones: with tracing on (`tracing:yes`, the last value
/// given), `--cfg=tracing/platform:yes`, which declares the links' `bandwidth` variable that SimGrid 3.32 updates at
/// each change and otherwise aborts on ("type with name (bandwidth) not found in parent type (LINK)", issue 31).
/// They go before `user`, so the user's win.
std::vector<std::string> simgrid_arguments_needed(const std::vector<std::string>& user);

/// Each argument is accepted alone (simgrid_argument_error) and yet some values stop a run together, with what
/// pipesim does or on some platforms (a trace file in a folder that does not exist, tracing/vm, tracing/platform:no
/// while pipesim sets link bandwidths, the Constant network model, which takes no link, a stack too small for the
/// actors). When `user` is not empty: InputError naming the user's arguments, what SimGrid said and what to change,
/// unless a check run ends well: a child process starts SimGrid with `all` (every argument of the run, the user's
/// included; its own trace file), builds the run's platform with `build_platform` (exactly as the run does, link
/// settings and exact-mode scaling included; without it, two hosts and a link whose bandwidth is then set) and runs a
/// transfer between the first host and one it has a route to and a computation on each. With tracing on, the trace
/// file's folder must also be writable. Costs one fork and one platform build per call, nothing without user
/// arguments.
void check_simgrid_arguments(const std::vector<std::string>& all, const std::vector<std::string>& user,
                             const std::function<void()>& build_platform = nullptr);

} // namespace pipesim
