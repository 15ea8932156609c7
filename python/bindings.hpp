// What the files of the `_pipesim` extension share: the conversions between C++ data and Python objects, the
// scenario a call names, and the registration function of each file (module.cpp calls them).
#pragma once

#include "scenarios/scenario.hpp"

#include <mutex>
#include <nlohmann/json_fwd.hpp>
#include <pybind11/pybind11.h>
#include <string>

namespace pipesim::python {

namespace py = pybind11;

/// A JSON document as plain Python data (dict, list, str, int, float, bool, None). A non-finite number is None, as
/// every pipesim JSON output writes it (validation/result_output.hpp), so the dict equals the parsed CLI output.
py::object to_python(const nlohmann::json& j);

/// A scenario as the Python side holds it: the YAML text, the file name its messages and outputs give, and the
/// directory its relative paths (an XML platform) resolve against.
struct ScenarioSource {
  std::string text;
  std::string file;
  std::string base_dir;
};
/// The parsed scenario (InputError as `pipesim map` gives it for the file).
Scenario parse_source(const ScenarioSource& source);

/// What a call into the library holds while it runs: the GIL released (a Python mapper takes it back), then the one
/// lock of the library's process pool, which is not for several threads at once (base/subprocess.hpp). Recursive: a
/// Python mapper may call pipesim.map. In that order, so that a thread waiting for the lock holds no GIL.
class LibraryCall {
public:
  LibraryCall() : lock_(mutex()) {}

private:
  static std::recursive_mutex& mutex();
  py::gil_scoped_release nogil_;
  std::lock_guard<std::recursive_mutex> lock_;
};

void bind_scenarios(py::module_& m); // scenario_bindings.cpp: load, check, with_values, to_dict, from_dict
void bind_runs(py::module_& m);      // run_bindings.cpp: map, simulate, campaign, mappers
void bind_mappers(py::module_& m);   // python_mapper.cpp: mappers written in Python, the problem they see
void install_process_hooks();        // process_hooks.cpp: the GIL across fork, Ctrl-C while children run

/// Whether a Python function is registered where C++ may call it (a mapper): a forked child then needs the
/// interpreter's fork protocol (process_hooks.cpp); without one, a child never runs Python.
bool python_callbacks_registered();

} // namespace pipesim::python
