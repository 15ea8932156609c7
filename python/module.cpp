// The `_pipesim` extension module: the C++ half of the `pipesim` Python package (docs/python.md). It calls the
// functions the command line calls (validation/), releases the GIL while they run, and turns pipesim::InputError
// into pipesim.InputError.
#include "base/input_error.hpp"
#include "python/bindings.hpp"

#include <exception>
#include <filesystem>
#include <string>

namespace pipesim::python {
namespace {

/// The Python class pipesim::InputError becomes: pipesim.InputError once pipesim/_errors.py has set it, ValueError
/// before (the campaign runner process, pipesim/_runner.py, loads this module alone). Never destroyed: no Python
/// object may be released after the interpreter has finalised.
py::object& input_error_type()
{
  static auto* type = new py::object();
  return *type;
}

void raise_input_error(const std::string& message)
{
  const py::object& type = input_error_type();
  if (!type) {
    PyErr_SetString(PyExc_ValueError, message.c_str());
    return;
  }
  py::object value = type(py::str(message));
  PyErr_SetObject(type.ptr(), value.ptr());
}

/// pipesim::InputError -> pipesim.InputError(message), and a file system error (an output directory that cannot be
/// made) as the command line reports it (exit 2: "PATH: why"). The Python class reads the file, line and key out of
/// the message (pipesim/_errors.py, `location`); once the C++ type carries them as fields, they are passed here as
/// keyword arguments and the parsing goes.
void translate_input_error(std::exception_ptr error)
{
  try {
    if (error) std::rethrow_exception(error);
  } catch (const InputError& e) {
    raise_input_error(e.what());
  } catch (const std::filesystem::filesystem_error& e) {
    raise_input_error(e.path1().string() + ": " + e.code().message());
  }
}

} // namespace
} // namespace pipesim::python

PYBIND11_MODULE(_pipesim, m)
{
  using namespace pipesim::python;
  m.doc()               = "pipesim's C++ library for the pipesim package (import pipesim, not this module)";
  m.attr("__version__") = PIPESIM_VERSION;
  py::register_exception_translator(&translate_input_error);
  m.def(
      "set_input_error_type", [](py::object type) { input_error_type() = std::move(type); }, py::arg("type"));
  bind_scenarios(m);
  bind_runs(m);
  bind_mappers(m);
  bind_policies(m);
  install_process_hooks();
}
