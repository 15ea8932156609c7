// map, simulate and campaign from Python: the functions `pipesim map`, `simulate` and `campaign` call, with the GIL
// released while they run, their results as the JSON documents the command line prints (as Python data).
#include "base/input_error.hpp"
#include "base/progress.hpp"
#include "mappers/mapper.hpp"
#include "python/bindings.hpp"
#include "validation/campaigns/campaign_runner.hpp"
#include "validation/evaluation/result_output.hpp"
#include "validation/evaluation/scenario_overrides.hpp"
#include "validation/evaluation/scenario_run.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <csignal>
#include <fmt/format.h>
#include <nlohmann/json.hpp>
#include <pybind11/stl.h>
#include <sys/prctl.h>
#include <thread>
#include <unistd.h>

namespace pipesim::python {

std::recursive_mutex& LibraryCall::mutex()
{
  static std::recursive_mutex m;
  return m;
}

py::object to_python(const nlohmann::json& j)
{
  using Type = nlohmann::json::value_t;
  switch (j.type()) {
  case Type::boolean:
    return py::bool_(j.get<bool>());
  case Type::number_integer:
    return py::int_(j.get<std::int64_t>());
  case Type::number_unsigned:
    return py::int_(j.get<std::uint64_t>());
  case Type::number_float: {
    double x = j.get<double>();
    return std::isfinite(x) ? py::object(py::float_(x)) : py::object(py::none()); // JSON writes it null
  }
  case Type::string:
    return py::str(j.get_ref<const std::string&>());
  case Type::array: {
    py::list l;
    for (const auto& item : j)
      l.append(to_python(item));
    return l;
  }
  case Type::object: {
    py::dict d;
    for (const auto& [key, value] : j.items())
      d[py::str(key)] = to_python(value);
    return d;
  }
  default: // null (and nlohmann's binary and discarded values, which pipesim never writes)
    return py::none();
  }
}

namespace {

/// The keyword arguments of pipesim.simulate (checked by the Python side) as the command line's options.
struct SimulateArguments {
  ScenarioOverrides overrides;
  std::string network; // empty: the scenario's
  std::vector<std::string> simgrid_args;
  int jobs   = 0;
  bool quiet = false;
};

ScenarioOverrides overrides_of(const SimulateArguments& a)
{
  ScenarioOverrides o = a.overrides;
  if (!a.network.empty()) {
    o.network = from_string<NetworkMode>(a.network);
    if (!o.network) throw InputError::option("--network", a.network, expected_names<NetworkMode>());
  }
  return o;
}

/// `pipesim map SCENARIO [--mapper M] --format json`.
py::object map(const std::string& text, const std::string& file, const std::string& base_dir, const std::string& mapper,
               const std::string& command)
{
  nlohmann::json j;
  {
    LibraryCall call;
    Scenario s = parse_source({text, file, base_dir});
    ScenarioOverrides o;
    o.mapper = mapper;
    apply_overrides(s, o, {});
    ScenarioRun run  = map_scenario(s);
    run.command_line = command;
    j                = run;
  }
  return to_python(j);
}

/// `pipesim simulate SCENARIO [options] --format json`: mapped here, every simulation in a child process.
py::object simulate(const std::string& text, const std::string& file, const std::string& base_dir,
                    const SimulateArguments& a, const std::string& command)
{
  nlohmann::json j;
  {
    LibraryCall call;
    Scenario s = parse_source({text, file, base_dir});
    apply_overrides(s, overrides_of(a), a.simgrid_args);
    require_work_for_jobs(a.jobs, s);
    s.simulation.progress = progress_mode(a.quiet); // a line on stderr when it is a terminal, as the CLI's
    ScenarioRun run       = map_scenario(s);
    run.command_line      = command;
    simulate_run(run, a.jobs > 0 ? a.jobs : static_cast<int>(std::max(1U, std::thread::hardware_concurrency())));
    j = run;
  }
  return to_python(j);
}

/// `pipesim campaign FILE --out DIR [...]`: the runner's summary (the rows are in DIR/results.csv).
py::dict campaign(const std::string& path, const std::string& out, int jobs, bool resume, const std::string& shard,
                  const std::vector<int>& only, bool quiet, const std::string& command)
{
  RunnerSummary s;
  std::string name;
  {
    LibraryCall call;
    Campaign c = load_campaign(path);
    name       = c.name;
    RunnerOptions r{
        .out_dir = out, .jobs = jobs, .resume = resume, .only = only, .command_line = command, .quiet = quiet};
    if (!shard.empty()) {
      auto spec = parse_shard_spec(shard);
      if (!spec)
        throw InputError::option("shard", shard, "expected i/N, two whole numbers with 1 <= i <= N, e.g. 3/10");
      r.shard_index = spec->first;
      r.shard_count = spec->second;
    }
    s = run_campaign(c, r);
  }
  py::dict d;
  d["campaign"] = name;
  d["total"]    = s.total;
  d["selected"] = s.selected;
  d["skipped"]  = s.skipped;
  d["executed"] = s.executed;
  d["failures"] = s.failures;
  return d;
}

/// A campaign runner process started by the interpreter (pipesim/_runner.py) dies with it, as pool children do.
void die_with_parent(long parent)
{
  ::prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (::getppid() != static_cast<pid_t>(parent)) ::_exit(5); // the parent died before prctl
}

/// `pipesim mappers --format json`: one dict per registered mapper (MapperInfo's JSON, in listing order: paper,
/// family, rank, name), with "restriction" "" when the mapper has none, so that every row has every column.
py::list mappers()
{
  py::list out;
  for (const MapperInfo& info : MapperRegistry::instance().infos()) {
    nlohmann::json j = to_json(info);
    if (!j.contains("restriction")) j["restriction"] = "";
    out.append(to_python(j));
  }
  return out;
}

} // namespace

void bind_runs(py::module_& m)
{
  m.def("map", &map, py::arg("text"), py::arg("file"), py::arg("base_dir"), py::arg("mapper"), py::arg("command"));
  m.def(
      "simulate",
      [](const std::string& text, const std::string& file, const std::string& base_dir, const std::string& mapper,
         int datasets, int warmup, const std::string& network, long long seed, int runs, bool trace,
         const std::vector<std::string>& simgrid_args, int jobs, bool quiet, double precision,
         const std::string& command) {
        SimulateArguments a{.overrides    = {.mapper    = mapper,
                                             .datasets  = datasets,
                                             .warmup    = warmup,
                                             .network   = std::nullopt,
                                             .seed      = seed,
                                             .runs      = runs,
                                             .trace     = trace,
                                             .precision = precision},
                            .network      = network,
                            .simgrid_args = simgrid_args,
                            .jobs         = jobs,
                            .quiet        = quiet};
        return simulate(text, file, base_dir, a, command);
      },
      py::arg("text"), py::arg("file"), py::arg("base_dir"), py::arg("mapper"), py::arg("datasets"), py::arg("warmup"),
      py::arg("network"), py::arg("seed"), py::arg("runs"), py::arg("trace"), py::arg("simgrid_args"), py::arg("jobs"),
      py::arg("quiet"), py::arg("precision"), py::arg("command"));
  m.def("campaign", &campaign, py::arg("path"), py::arg("out"), py::arg("jobs"), py::arg("resume"), py::arg("shard"),
        py::arg("only"), py::arg("quiet"), py::arg("command"));
  m.def("mappers", &mappers);
  m.def("die_with_parent", &die_with_parent, py::arg("parent"));
}

} // namespace pipesim::python
