// Mappers written in Python: a registry entry whose map() calls a Python function (under the GIL) with the problem
// and turns the mapping it returns into a validated Mapping, evaluated as the `explicit` mapper evaluates one.
#include "base/input_error.hpp"
#include "mappers/mapper.hpp"
#include "model/analysis.hpp"
#include "python/bindings.hpp"
#include "scenarios/scenario.hpp"

#include <chrono>
#include <fmt/format.h>
#include <map>
#include <memory>
#include <pybind11/stl.h>
#include <tuple>
#include <unistd.h>

namespace pipesim::python {
namespace {

struct PythonMapperEntry {
  py::object adapter; // problem -> list of IntervalTuple or None (pipesim/_mappers.py wraps the user's function)
  MapperInfo info;    // paper `python`; family, objective, models and mapping rule as the decorator declared them
};

/// The process that imported the module (a campaign's workers are its forked children).
pid_t module_pid = 0;

/// Never destroyed: the Python objects must not be released after the interpreter has finalised.
std::map<std::string, PythonMapperEntry>& entries()
{
  static auto* table = new std::map<std::string, PythonMapperEntry>();
  return *table;
}

} // namespace

Mapping resolve(const std::vector<IntervalTuple>& intervals, const Problem& problem, const std::string& who)
{
  MappingSpec spec;
  spec.file = who;
  for (const auto& [first, last, replicas, replication] : intervals) {
    MappingSpec::IntervalSpec in;
    in.first = first;
    in.last  = last;
    for (const auto& hosts : replicas)
      in.replicas.push_back({.hosts = hosts, .line = 0});
    auto r = from_string<Replication>(replication);
    if (!r) throw InputError(fmt::format("{}: replication '{}': {}", who, replication, expected_names<Replication>()));
    in.replication = *r;
    spec.intervals.push_back(std::move(in));
  }
  return resolve_mapping(spec, problem.pipeline, problem.platform);
}

std::string raised_text(const py::error_already_set& e)
{
  std::string text = e.what(); // "ValueError: why\n\nAt:\n  FILE(LINE): FUNCTION\n  ..." (pybind11)
  std::string where;
  if (auto at = text.find("\n\nAt:\n"); at != std::string::npos) {
    auto first = text.find_first_not_of(' ', at + 7);
    where      = fmt::format(" (at {})", text.substr(first, text.find('\n', first) - first));
    text.erase(at);
  }
  return text + where;
}

namespace {

/// The mapping's analytic figures under the problem's model (the `explicit` mapper's evaluation).
AnalyticSummary evaluate(const Problem& problem, const Mapping& mapping)
{
  return problem.model == CommModel::multi_port ? analyze_multiport(problem.pipeline, problem.platform, mapping)
                                                : analyze_oneport(problem.pipeline, problem.platform, mapping);
}

class PythonMapper : public Mapper {
public:
  explicit PythonMapper(std::string name) : name_(std::move(name)) {}
  MapperInfo info() const override { return entries().at(name_).info; }

protected:
  std::optional<std::string> instance_refusal(const Problem& problem) const override
  {
    if (problem.task_chain) return "a mapper written in Python maps pipelines, not sv95's task chains";
    return std::nullopt;
  }

public:
  MapperResult map(const Problem& problem, const MapperOptions& options) const override
  {
    std::optional<std::vector<IntervalTuple>> intervals;
    {
      py::gil_scoped_acquire gil;
      try {
        py::object out = entries().at(name_).adapter(ProblemView{problem, options});
        if (!out.is_none()) intervals = out.cast<std::vector<IntervalTuple>>();
      } catch (const py::error_already_set& e) {
        if (::getpid() == module_pid) throw; // the caller gets the Python exception itself
        throw InputError(raised(e));         // in a campaign's worker: the row's error (status "error")
      }
    }
    MapperResult result;
    if (!intervals) {
      result.status    = SolveStatus::infeasible;
      result.objective = unbounded;
      return result;
    }
    result.mapping = resolve(*intervals, problem, fmt::format("mapper '{}'", name_));
    check_rule(result.mapping);
    AnalyticSummary analytic                 = evaluate(problem, result.mapping);
    result.statistics["period"]              = analytic.period;
    result.statistics["latency"]             = analytic.latency;
    result.statistics["failure_probability"] = analytic.failure_probability;
    result.objective =
        problem.objective.kind == Objective::Kind::min_period ? analytic.period : analytic.failure_probability;
    return result;
  }

private:
  /// The mapping obeys the rule the mapper declared (MapperInfo::mapping: what `pipesim.mappers()` tells).
  void check_rule(const Mapping& mapping) const
  {
    MappingRule declared = entries().at(name_).info.mapping;
    MappingRule rule     = classify(mapping);
    if (rule > declared)
      throw InputError(fmt::format("mapper '{}': it returned a mapping of rule '{}', beyond the mapping='{}' it was "
                                   "registered with (give mapping='{}' to @pipesim.mapper)",
                                   name_, to_string(rule), to_string(declared), to_string(rule)));
  }

  /// "mapper 'NAME' raised ValueError: why (at FILE(LINE): FUNCTION)": the exception and its innermost frame.
  std::string raised(const py::error_already_set& e) const
  {
    return fmt::format("mapper '{}' raised {}", name_, raised_text(e));
  }

  std::string name_;
};

/// The value of the decorator's keyword `key` as an enum of E, or an InputError naming the accepted ones.
template <typename E>
E keyword_value(const std::string& mapper, const char* key, const std::string& value)
{
  auto v = from_string<E>(value);
  if (!v) throw InputError(fmt::format("mapper '{}': {} '{}': {}", mapper, key, value, expected_names<E>()));
  return *v;
}

/// What @pipesim.mapper declares, as the registry's metadata (InputError for a name or value it cannot take).
MapperInfo python_mapper_info(const std::string& name, const std::string& description,
                              const std::vector<std::string>& model_names, const std::string& family,
                              const std::string& objective, const std::string& mapping)
{
  if (name.empty()) throw InputError("a mapper needs a name");
  MapperInfo info;
  info.name        = name;
  info.description = description;
  info.paper       = Paper::python;
  info.models.clear();
  for (const auto& m : model_names)
    info.models.push_back(keyword_value<CommModel>(name, "model", m));
  if (info.models.empty()) throw InputError(fmt::format("mapper '{}': no model given", name));
  info.family = keyword_value<MapperFamily>(name, "family", family);
  if (info.family == MapperFamily::given || info.family == MapperFamily::testing)
    throw InputError(fmt::format("mapper '{}': family '{}' is the registry's own; a Python mapper is one of heuristic, "
                                 "random, best-of, dynamic-program, integer-program, period-search, exhaustive",
                                 name, family));
  info.objective = keyword_value<MapperObjective>(name, "objective", objective);
  if (info.objective != MapperObjective::period && info.objective != MapperObjective::failure_probability)
    throw InputError(fmt::format("mapper '{}': objective '{}': a Python mapper minimises the period or the failure "
                                 "probability: expected 'period' or 'failure-probability'",
                                 name, objective));
  info.mapping    = keyword_value<MappingRule>(name, "mapping", mapping);
  info.complexity = "Python";
  return info;
}

void register_mapper(const std::string& name, py::object adapter, const std::string& description,
                     const std::vector<std::string>& model_names, const std::string& family,
                     const std::string& objective, const std::string& mapping)
{
  MapperInfo info = python_mapper_info(name, description, model_names, family, objective, mapping);
  auto it         = entries().find(name);
  if (it != entries().end()) {
    it->second = {std::move(adapter), std::move(info)}; // a notebook cell run again
    MapperRegistry::instance().replace([name] { return std::make_unique<PythonMapper>(name); });
    return;
  }
  if (MapperRegistry::instance().find(name))
    throw InputError(fmt::format("mapper '{}' is a built-in mapper; give the Python one another name", name));
  entries()[name] = {std::move(adapter), std::move(info)};
  MapperRegistry::instance().add([name] { return std::make_unique<PythonMapper>(name); });
}

py::list list_of(const std::vector<double>& v)
{
  py::list l;
  for (double x : v)
    l.append(x);
  return l;
}

/// A node-by-node matrix of the platform (processors, then P_in, then P_out).
template <typename Value>
py::list matrix(const Platform& platform, Value value)
{
  py::list rows;
  for (int u = 0; u < platform.nodes(); ++u) {
    py::list row;
    for (int v = 0; v < platform.nodes(); ++v)
      row.append(value(u, v));
    rows.append(row);
  }
  return rows;
}

template <typename Field>
py::list processor_values(const Platform& platform, Field field)
{
  py::list l;
  for (const auto& p : platform.processors())
    l.append(field(p));
  return l;
}

py::dict evaluate_view(const ProblemView& v, const std::vector<IntervalTuple>& intervals)
{
  AnalyticSummary a;
  {
    py::gil_scoped_release nogil;
    a = evaluate(v.problem, resolve(intervals, v.problem, "the mapping"));
  }
  py::dict d;
  d["period"]              = a.period;
  d["latency"]             = a.latency;
  d["failure_probability"] = a.failure_probability;
  d["formula"]             = a.formula;
  return d;
}

void bind_problem(py::module_& m)
{
  using P = ProblemView;
  py::class_<P>(m, "ProblemCore")
      .def_property_readonly("n", [](const P& v) { return v.problem.pipeline.n(); })
      .def_property_readonly("w", [](const P& v) { return list_of(v.problem.pipeline.w); })
      .def_property_readonly("delta", [](const P& v) { return list_of(v.problem.pipeline.delta); })
      .def_property_readonly("p", [](const P& v) { return v.problem.platform.p(); })
      .def_property_readonly(
          "processors",
          [](const P& v) { return processor_values(v.problem.platform, [](const Processor& p) { return p.name; }); })
      .def_property_readonly(
          "speed",
          [](const P& v) { return processor_values(v.problem.platform, [](const Processor& p) { return p.speed; }); })
      .def_property_readonly("failure_probability",
                             [](const P& v) {
                               return processor_values(v.problem.platform,
                                                       [](const Processor& p) { return p.failure_probability; });
                             })
      .def_property_readonly(
          "nic_in",
          [](const P& v) { return processor_values(v.problem.platform, [](const Processor& p) { return p.nic_in; }); })
      .def_property_readonly(
          "nic_out",
          [](const P& v) { return processor_values(v.problem.platform, [](const Processor& p) { return p.nic_out; }); })
      .def_property_readonly("in_name", [](const P& v) { return v.problem.platform.in_name(); })
      .def_property_readonly("out_name", [](const P& v) { return v.problem.platform.out_name(); })
      .def_property_readonly("bandwidth",
                             [](const P& v) {
                               const Platform& pl = v.problem.platform;
                               return matrix(pl, [&](int a, int b) { return pl.bandwidth(a, b); });
                             })
      .def_property_readonly("latency",
                             [](const P& v) {
                               const Platform& pl = v.problem.platform;
                               return matrix(pl, [&](int a, int b) { return pl.latency(a, b); });
                             })
      .def("transfer_time",
           [](const P& v, int a, int b, double bytes) { return v.problem.platform.transfer_time(a, b, bytes); })
      .def_property_readonly("platform_class", [](const P& v) { return to_string(v.problem.platform.classify()); })
      .def_property_readonly("model", [](const P& v) { return to_string(v.problem.model); })
      .def_property_readonly("objective", [](const P& v) { return to_string(v.problem.objective.kind); })
      .def_property_readonly("period_bound", [](const P& v) { return v.problem.objective.period_bound; })
      .def_property_readonly("seed", [](const P& v) { return v.options.seed; })
      .def_property_readonly("time_limit", [](const P& v) { return v.options.time_limit; })
      .def("evaluate", &evaluate_view);
}

/// Seconds per run_mapper call of `mapper` on the scenario's problem, over `repeats` calls (python/bench/).
double time_mapper(const std::string& text, const std::string& file, const std::string& base_dir,
                   const std::string& mapper, int repeats)
{
  LibraryCall call;
  Scenario s = parse_source({text, file, base_dir});
  Problem problem;
  problem.pipeline  = s.pipeline;
  problem.platform  = model_platform(s.platform);
  problem.model     = s.simulation.model;
  problem.objective = s.objective;
  if (s.mapping) problem.explicit_mapping = resolve_mapping(*s.mapping, s.pipeline, problem.platform);
  auto start = std::chrono::steady_clock::now();
  for (int i = 0; i < repeats; ++i)
    run_mapper(mapper, problem, s.mapper_options);
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() / std::max(1, repeats);
}

} // namespace

bool python_callbacks_registered() { return !entries().empty() || python_policies_registered(); }

void bind_mappers(py::module_& m)
{
  module_pid = ::getpid();
  bind_problem(m);
  m.def("register_mapper", &register_mapper, py::arg("name"), py::arg("adapter"), py::arg("description"),
        py::arg("models"), py::arg("family"), py::arg("objective"), py::arg("mapping"));
  m.def("python_mappers", [] {
    std::vector<std::string> names;
    for (const auto& [name, entry] : entries())
      names.push_back(name);
    return names;
  });
  m.def("time_mapper", &time_mapper, py::arg("text"), py::arg("file"), py::arg("base_dir"), py::arg("mapper"),
        py::arg("repeats"));
}

} // namespace pipesim::python
