// What the files of the `_pipesim` extension share: the conversions between C++ data and Python objects, the
// scenario a call names, and the registration function of each file (module.cpp calls them).
#pragma once

#include "mappers/mapper.hpp"
#include "scenarios/scenario.hpp"

#include <mutex>
#include <nlohmann/json_fwd.hpp>
#include <pybind11/pybind11.h>
#include <string>
#include <tuple>
#include <vector>

namespace pipesim::python {

namespace py = pybind11;

/// A JSON document as plain Python data (dict, list, str, int, float, bool, None). A non-finite number is None, as
/// every pipesim JSON output writes it (validation/evaluation/result_output.hpp), so the dict equals the parsed CLI
/// output.
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

/// What a Python mapper sees: the problem and the mapper options, read-only (pipesim.Problem wraps it).
struct ProblemView {
  Problem problem;
  MapperOptions options;
};

/// One interval as pipesim/_mapping.py normalises a mapping given in Python: first and last stage (1-based), the
/// replicas (each a list of host names: one host, or a data-parallel group) and the replication.
using IntervalTuple = std::tuple<int, int, std::vector<std::vector<std::string>>, std::string>;

/// The mapping `intervals` describe on the problem's pipeline and platform, validated (InputError whose message
/// starts with `who`).
Mapping resolve(const std::vector<IntervalTuple>& intervals, const Problem& problem, const std::string& who);

/// "ValueError: why (at FILE(LINE): FUNCTION)": a Python exception and its innermost frame, for a message.
std::string raised_text(const py::error_already_set& e);

void bind_scenarios(py::module_& m); // scenario_bindings.cpp: load, check, with_values, to_dict, from_dict
void bind_runs(py::module_& m);      // run_bindings.cpp: map, simulate, campaign, mappers
void bind_mappers(py::module_& m);   // python_mapper.cpp: mappers written in Python, the problem they see
void bind_policies(py::module_& m);  // python_policy.cpp: re-mapping policies written in Python, their view
void install_process_hooks();        // process_hooks.cpp: the GIL across fork, Ctrl-C while children run

/// Whether a Python function is registered where C++ may call it (a mapper): a forked child then needs the
/// interpreter's fork protocol (process_hooks.cpp); without one, a child never runs Python.
bool python_callbacks_registered();
bool python_policies_registered(); // python_policy.cpp: a policy written in Python is registered

} // namespace pipesim::python
