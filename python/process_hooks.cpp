// The process pool inside a Python interpreter (base/subprocess.hpp, PoolHooks): the GIL and the interpreter's own
// fork protocol around each fork, and Ctrl-C while the pool waits for its children.
//
// Every simulation runs in a forked child (SimGrid allows one engine per process), and a campaign's workers are
// forked from the interpreter. A child that may call Python (a mapper written in Python, in a campaign worker) must
// be forked the way os.fork() does it: with the GIL held by the forking thread (another thread, e.g. a Jupyter
// kernel's, may hold it at the instant of the fork and would never release it in the child), between
// PyOS_BeforeFork and PyOS_AfterFork_Child/Parent (import lock, at-fork handlers, thread states). When no Python
// function is registered, no child can call Python: those forks skip all of it, and such a child never touches the
// interpreter (`python_usable`).
#include "base/subprocess.hpp"
#include "python/bindings.hpp"

#include <Python.h>

namespace pipesim::python {
namespace {

bool python_usable        = true;  // false in a child forked without the protocol: it never touches the interpreter
bool fork_with_protocol   = false; // this fork follows the protocol (decided in before_fork)
PyGILState_STATE fork_gil = PyGILState_UNLOCKED;

void before_fork()
{
  fork_with_protocol = python_usable && python_callbacks_registered();
  if (!fork_with_protocol) return;
  fork_gil = PyGILState_Ensure();
  PyOS_BeforeFork();
}

void after_fork(bool child)
{
  if (!fork_with_protocol) {
    if (child) python_usable = false;
    return;
  }
  if (child)
    PyOS_AfterFork_Child(); // this thread is the child's only one, and holds the GIL
  else
    PyOS_AfterFork_Parent();
  PyGILState_Release(fork_gil); // the pool goes on without the GIL; a Python mapper takes it when called
}

/// Runs Python's signal handlers: Ctrl-C raises KeyboardInterrupt here, and the pool kills and reaps its children
/// before the exception reaches the caller. Only the main thread runs them (PyErr_CheckSignals does nothing
/// elsewhere), as in Python itself.
void check_interrupt()
{
  if (!python_usable) return;
  py::gil_scoped_acquire gil;
  if (PyErr_CheckSignals() != 0) throw py::error_already_set();
}

} // namespace

void install_process_hooks()
{
  set_pool_hooks({.before_fork = before_fork, .after_fork = after_fork, .check_interrupt = check_interrupt});
}

} // namespace pipesim::python
