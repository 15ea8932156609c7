// Re-mapping policies written in Python (@pipesim.policy): a RemapPolicy (simulator/remap.hpp) whose decide() calls a
// Python object, under the GIL, between two engine steps of the simulation's child process, with a view of the
// windows measured so far, and turns what it returns into a validated RemapDecision. The actors stay C++.
#include "base/input_error.hpp"
#include "python/bindings.hpp"
#include "validation/evaluation/remap_policies.hpp"
#include "validation/evaluation/scenario_run.hpp"

#include <fmt/format.h>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <pybind11/stl.h>

namespace pipesim::python {
namespace {

/// Never destroyed: the Python objects must not be released after the interpreter has finalised. Each factory makes
/// one run's policy: (decide, next_date or None), pipesim/_policies.py.
std::map<std::string, py::object>& python_policy_table()
{
  static auto* table = new std::map<std::string, py::object>();
  return *table;
}

/// What a Python policy keeps through its run: the problem (nominal platform), the mapper and its options, and the
/// measured model of every window so far (validation/evaluation/remap_policies.hpp, the built-in policies' own).
struct PolicyState {
  std::string name;
  std::string mapper;
  ProblemView nominal;
  int buffer = 1;
  MeasuredModel measured;
};

/// What pipesim.PolicyView wraps: one call's view. A copy: the pointers stay valid for the whole run (the controller
/// keeps every segment's mapping and every window), `windows` counts the windows closed at the time of the call.
struct PolicyViewCore {
  RemapView view;
  std::size_t windows = 0;
  PolicyState* state  = nullptr;

  const Platform& platform_named(const std::string& which) const
  {
    if (which == "measured") return state->measured.platform();
    if (which == "nominal") return state->nominal.problem.platform;
    throw InputError::keyed(
        "dynamic.policy", state->name,
        fmt::format("policy '{}': platform '{}': expected 'measured' or 'nominal'", state->name, which));
  }
};

py::object mapping_object(const Mapping& mapping, const Platform& platform)
{
  return to_python(mapping_json(mapping, platform));
}

/// A mapping given in Python (normalised), or the running one for None.
Mapping view_mapping(const PolicyViewCore& v, const std::optional<std::vector<IntervalTuple>>& intervals)
{
  if (!intervals) return *v.view.mapping;
  return resolve(*intervals, v.state->nominal.problem, fmt::format("policy '{}'", v.state->name));
}

/// The mapper's mapping on the measured (or nominal) platform, as view.mapping gives one; None when it finds none.
py::object view_map(const PolicyViewCore& v, const std::string& which, const std::string& mapper)
{
  Problem problem  = v.state->nominal.problem;
  problem.platform = v.platform_named(which);
  MapperResult r;
  {
    py::gil_scoped_release nogil; // a Python mapper takes it back
    r = run_mapper(mapper.empty() ? v.state->mapper : mapper, problem, v.state->nominal.options);
  }
  if (r.status == SolveStatus::infeasible || r.mapping.intervals.empty()) return py::none();
  return mapping_object(r.mapping, problem.platform);
}

double view_period(const PolicyViewCore& v, const std::optional<std::vector<IntervalTuple>>& intervals,
                   const std::string& which)
{
  const Problem& p = v.state->nominal.problem;
  return predicted_period(p.pipeline, v.platform_named(which), view_mapping(v, intervals), p.model, v.state->buffer);
}

py::list interval_list(const WindowMeasurement& w, const Platform& platform)
{
  py::list out;
  for (const IntervalMeasure& m : w.intervals) {
    py::dict d;
    d["interval"] = m.interval;
    d["node"]     = m.node;
    d["host"]     = m.node >= 0 ? py::object(py::str(platform.node_name(m.node))) : py::object(py::none());
    d["work"]     = m.work;
    d["time"]     = m.time;
    d["count"]    = m.count;
    out.append(d);
  }
  return out;
}

py::list link_list(const WindowMeasurement& w, const Platform& platform)
{
  py::list out;
  for (const LinkMeasure& l : w.links) {
    py::dict d;
    d["from"]  = platform.node_name(l.from);
    d["to"]    = platform.node_name(l.to);
    d["bytes"] = l.bytes;
    d["time"]  = l.time;
    d["count"] = l.count;
    out.append(d);
  }
  return out;
}

class PythonPolicy final : public RemapPolicy {
public:
  PythonPolicy(py::object decide, py::object next_date, PolicyState state)
      : decide_(std::move(decide)), next_date_(std::move(next_date)), state_(std::move(state))
  {
  }
  ~PythonPolicy() override
  {
    py::gil_scoped_acquire gil; // the run ends in the caller's LibraryCall, without the GIL
    decide_    = py::object();
    next_date_ = py::object();
  }
  PythonPolicy(const PythonPolicy&)            = delete;
  PythonPolicy& operator=(const PythonPolicy&) = delete;

  double next_date(double now) const override
  {
    if (!has_next_date_) return std::numeric_limits<double>::infinity();
    py::gil_scoped_acquire gil;
    try {
      py::object date = next_date_(now);
      return date.is_none() ? std::numeric_limits<double>::infinity() : date.cast<double>();
    } catch (const py::error_already_set& e) {
      throw InputError::keyed("dynamic.policy", state_.name,
                              fmt::format("policy '{}': next_date raised {}", state_.name, raised_text(e)));
    } catch (const py::cast_error&) {
      throw InputError::keyed(
          "dynamic.policy", state_.name,
          fmt::format("policy '{}': next_date returned no date (expected a number of seconds or None)", state_.name));
    }
  }

  std::optional<RemapDecision> decide(const RemapView& view) override;

private:
  py::object decide_;
  py::object next_date_;
  bool has_next_date_ = !next_date_.is_none();
  PolicyState state_;
};

using DecisionTuple = std::tuple<std::vector<IntervalTuple>, std::string, bool>;

std::optional<RemapDecision> PythonPolicy::decide(const RemapView& view)
{
  for (std::size_t i = view.windows->size() - view.new_windows; i < view.windows->size(); ++i)
    state_.measured.update((*view.windows)[i]);
  std::optional<DecisionTuple> out;
  {
    py::gil_scoped_acquire gil;
    try {
      py::object answer = decide_(PolicyViewCore{view, view.windows->size(), &state_});
      if (!answer.is_none()) out = answer.cast<DecisionTuple>();
    } catch (const py::error_already_set& e) {
      throw InputError::keyed("dynamic.policy", state_.name,
                              fmt::format("policy '{}' raised {}", state_.name, raised_text(e)));
    } catch (const py::cast_error& e) { // pipesim/_policies.py normalises the answer: not expected
      throw InputError::keyed("dynamic.policy", state_.name,
                              fmt::format("policy '{}': its answer is no decision ({})", state_.name, e.what()));
    }
  }
  if (!out) return std::nullopt;
  auto& [intervals, reason, free] = *out;
  RemapDecision decision;
  decision.mapping =
      resolve(intervals, state_.nominal.problem, fmt::format("the mapping policy '{}' returned", state_.name));
  decision.reason = std::move(reason);
  decision.free   = free;
  return decision;
}

/// The factory register_remap_policy keeps for `name`: calls the Python factory (a class policy is instantiated for
/// the run here, in the process that starts the simulation).
std::shared_ptr<RemapPolicy> make_python_policy(const std::string& name, const PolicySetup& setup)
{
  PolicyState state{.name     = name,
                    .mapper   = setup.mapper,
                    .nominal  = {setup.context.problem, setup.context.options},
                    .buffer   = setup.context.buffer,
                    .measured = MeasuredModel(setup.context.problem.platform, setup.context.problem.model)};
  py::gil_scoped_acquire gil;
  try {
    auto [decide, next_date] = python_policy_table().at(name)().cast<std::pair<py::object, py::object>>();
    return std::make_shared<PythonPolicy>(std::move(decide), std::move(next_date), std::move(state));
  } catch (const py::error_already_set& e) {
    throw InputError::keyed("dynamic.policy", name,
                            fmt::format("policy '{}': making it raised {}", name, raised_text(e)));
  }
}

void register_policy(const std::string& name, py::object factory)
{
  register_remap_policy(name, [name](const PolicySetup& setup) { return make_python_policy(name, setup); });
  python_policy_table()[name] = std::move(factory);
}

void bind_policy_view(py::module_& m)
{
  using V = PolicyViewCore;
  py::class_<V>(m, "PolicyViewCore")
      .def_property_readonly("now", [](const V& v) { return v.view.now; })
      .def_property_readonly("new_windows", [](const V& v) { return v.view.new_windows; })
      .def_property_readonly("next_dataset", [](const V& v) { return v.view.next_dataset; })
      .def_property_readonly("datasets", [](const V& v) { return v.view.datasets; })
      .def_property_readonly("window_count", [](const V& v) { return v.windows; })
      .def_property_readonly("name", [](const V& v) { return v.state->name; })
      .def_property_readonly("mapper", [](const V& v) { return v.state->mapper; })
      .def_property_readonly("mapping", [](const V& v) { return mapping_object(*v.view.mapping, *v.view.platform); })
      .def_property_readonly("mapping_text", [](const V& v) { return to_text(*v.view.mapping, *v.view.platform); })
      .def_property_readonly("processors",
                             [](const V& v) {
                               std::vector<std::string> names;
                               for (const Processor& p : v.view.platform->processors())
                                 names.push_back(p.name);
                               return names;
                             })
      .def("window",
           [](const V& v, std::size_t i) { // a tuple: one call and no object per window (a policy reads many)
             const WindowMeasurement& w = v.view.windows->at(i);
             return py::make_tuple(w.index, w.first, w.start, w.end, w.period, w.disturbed);
           })
      .def("window_intervals",
           [](const V& v, std::size_t i) { return interval_list(v.view.windows->at(i), *v.view.platform); })
      .def("window_links", [](const V& v, std::size_t i) { return link_list(v.view.windows->at(i), *v.view.platform); })
      .def(
          "nominal", [](const V& v) { return &v.state->nominal; }, py::return_value_policy::reference)
      .def("measured",
           [](const V& v) {
             ProblemView p      = v.state->nominal;
             p.problem.platform = v.state->measured.platform();
             return p;
           })
      .def("map", &view_map, py::arg("platform"), py::arg("mapper"))
      .def("period", &view_period, py::arg("mapping"), py::arg("platform"));
}

} // namespace

bool python_policies_registered() { return !python_policy_table().empty(); }

void bind_policies(py::module_& m)
{
  bind_policy_view(m);
  m.def("register_policy", &register_policy, py::arg("name"), py::arg("factory"));
  m.def("python_policies", [] {
    std::vector<std::string> names;
    for (const auto& [name, factory] : python_policy_table())
      names.push_back(name);
    return names;
  });
}

} // namespace pipesim::python
