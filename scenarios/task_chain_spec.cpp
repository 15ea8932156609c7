// The `task_chain:` section of a scenario (sv95), read strictly: errors name file, line, key, value and limit.
#include "scenarios/task_chain_spec.hpp"

#include "base/input_error.hpp"
#include "model/sv95/program.hpp"
#include "model/sv95/response.hpp"
#include "scenarios/scenario.hpp"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <map>

namespace pipesim {

namespace {
double finite(const YamlNode& node)
{
  double v = node.as_double();
  if (not std::isfinite(v)) node.fail("expected a finite number");
  return v;
}

std::vector<double> table_values(const YamlNode& node)
{
  std::vector<double> values;
  for (const YamlNode& item : node.items())
    values.push_back(item.as_nonnegative());
  if (values.empty()) node.fail("expected at least one value");
  return values;
}

/// A number, [C1, C2, C3], or {table: [...], from: p}.
CostFunction parse_cost(const YamlNode& node)
{
  if (node.is_scalar()) return CostFunction::polynomial(finite(node));
  if (node.is_sequence()) {
    std::vector<YamlNode> items = node.items();
    if (items.size() != 3)
      node.fail("expected [C1, C2, C3] (seed 001 §5: C1 + C2/p + C3 p), a number, or {table: [...], from: p}");
    return CostFunction::polynomial(finite(items[0]), finite(items[1]), finite(items[2]));
  }
  node.require_map();
  node.allow_only({"table", "from"});
  int from = 1;
  if (auto f = node.find("from")) from = f->as_int_at_least(1);
  return CostFunction::values(table_values(node.at("table")), from);
}

/// A number, [C1, C2, C3, C4, C5], or {table: [[...], ...], from: [ps, pr]}.
CommFunction parse_comm(const YamlNode& node)
{
  if (node.is_scalar()) return CommFunction::polynomial(finite(node));
  if (node.is_sequence()) {
    std::vector<YamlNode> c = node.items();
    if (c.size() != 5)
      node.fail("expected [C1, C2, C3, C4, C5] (seed 001 §5: C1 + C2/ps + C3/pr + C4 ps + C5 pr), a number, or "
                "{table: [[...], ...], from: [ps, pr]}");
    return CommFunction::polynomial(finite(c[0]), finite(c[1]), finite(c[2]), finite(c[3]), finite(c[4]));
  }
  node.require_map();
  node.allow_only({"table", "from"});
  int from_s = 1, from_r = 1;
  if (auto f = node.find("from")) {
    std::vector<YamlNode> both = f->items();
    if (both.size() != 2) f->fail("expected [ps, pr], the first sender and receiver processor counts of the table");
    from_s = both[0].as_int_at_least(1);
    from_r = both[1].as_int_at_least(1);
  }
  std::vector<std::vector<double>> rows;
  const YamlNode table = node.at("table");
  for (const YamlNode& row : table.items()) {
    rows.push_back(table_values(row));
    if (rows.back().size() != rows.front().size())
      row.fail(fmt::format("expected {} values, as in the first row (one per receiver count)", rows.front().size()));
  }
  if (rows.empty()) table.fail("expected at least one row (one per sender count)");
  return CommFunction::values(std::move(rows), from_s, from_r);
}

/// {sequential, parallel, overhead, output, distribution}: sv95's data-parallel task as a program.
TaskProgram parse_program(const YamlNode& node)
{
  node.require_map();
  node.allow_only({"sequential", "parallel", "overhead", "output", "distribution"});
  TaskProgram program;
  for (auto [key, value] : {std::pair{"sequential", &program.sequential}, std::pair{"parallel", &program.parallel},
                            std::pair{"overhead", &program.overhead}, std::pair{"output", &program.output}})
    if (auto v = node.find(key)) *value = v->as_nonnegative();
  if (auto d = node.find("distribution")) program.distribution = d->as_enum<Distribution>("distribution");
  return program;
}

/// A chain runs programs on all its tasks or on none.
void check_programs_everywhere(const TaskChainSpec& spec)
{
  auto with = std::ranges::find_if(spec.nodes, [](const auto& n) { return n.program.has_value(); });
  if (with == spec.nodes.end()) return;
  for (const TaskChainSpec::TaskNodes& n : spec.nodes)
    if (not n.program)
      n.task.fail_key(fmt::format("missing key 'program': task {} has one, and a chain runs programs on all its tasks "
                                  "or on none",
                                  with - spec.nodes.begin() + 1));
}

TaskChainSpec::TaskNodes parse_task(const YamlNode& node, bool last, Task& task)
{
  node.require_map();
  node.allow_only({"name", "exec", "p_min", "memory", "replicable", "icom", "ecom", "program"});
  TaskChainSpec::TaskNodes nodes{node,
                                 node.find("exec"),
                                 node.find("p_min"),
                                 node.find("memory"),
                                 node.find("replicable"),
                                 node.find("icom"),
                                 node.find("ecom"),
                                 node.find("program")};
  if (auto name = node.find("name")) task.name = name->as_string();
  if (not nodes.program) nodes.exec = node.at("exec"); // a program's exec may be derived (complete_task_chain_spec)
  task.exec = nodes.exec ? parse_cost(*nodes.exec) : CostFunction::missing(); // derived or measured later
  if (nodes.p_min) task.p_min = nodes.p_min->as_int_at_least(1);
  if (nodes.memory) task.memory = nodes.memory->as_nonnegative();
  if (nodes.replicable) task.replicable = nodes.replicable->as_bool();
  for (const char* key : {"icom", "ecom"}) {
    if (last && node.has(key))
      node.at(key).fail_key("the last task has no next task: f_icom and f_ecom go on the sending task");
    if (not last && not node.has(key) && not nodes.program) // a program's are measured by `pipesim fit`
      node.fail_key(fmt::format("missing key '{}': the time towards the next task (a number, a list of seed 001 §5's "
                                "coefficients, or a table)",
                                key));
  }
  return nodes;
}
} // namespace

TaskChainSpec parse_task_chain_spec(const YamlNode& node)
{
  node.require_map();
  node.allow_only({"tasks", "input", "output", "processor_memory"});
  TaskChainSpec spec;
  spec.root                        = node;
  const YamlNode tasks             = node.at("tasks");
  const std::vector<YamlNode> list = tasks.items();
  if (list.empty()) tasks.fail("expected at least one task");
  for (std::size_t i = 0; i < list.size(); ++i) {
    Task task;
    spec.nodes.push_back(parse_task(list[i], i + 1 == list.size(), task));
    spec.chain.tasks.push_back(std::move(task));
    if (spec.nodes.back().program) spec.chain.programs.push_back(parse_program(*spec.nodes.back().program));
    if (i + 1 < list.size()) {
      const TaskChainSpec::TaskNodes& n = spec.nodes.back();
      spec.chain.icom.push_back(n.icom ? parse_cost(*n.icom) : CostFunction::missing());
      spec.chain.ecom.push_back(n.ecom ? parse_comm(*n.ecom) : CommFunction::missing());
    }
  }
  check_programs_everywhere(spec);
  spec.input            = node.find("input");
  spec.output           = node.find("output");
  spec.processor_memory = node.find("processor_memory");
  if (spec.input) spec.chain.input = parse_cost(*spec.input);
  if (spec.output) spec.chain.output = parse_cost(*spec.output);
  if (spec.processor_memory) spec.chain.processor_memory = spec.processor_memory->as_positive();
  return spec;
}

void complete_task_chain_spec(TaskChainSpec& spec, const Platform& platform)
{
  for (std::size_t i = 0; i < spec.nodes.size(); ++i) {
    const TaskChainSpec::TaskNodes& nodes = spec.nodes[i];
    if (not spec.chain.tasks[i].exec.is_missing() || not nodes.program) continue; // given, or fitted
    auto [slow, fast] = std::ranges::minmax_element(platform.processors(), {}, &Processor::speed);
    if (slow->speed != fast->speed) continue; // not derivable: require_task_chain_functions says so
    spec.chain.tasks[i].exec = program_exec(spec.chain.programs[i], slow->speed);
  }
}

Pipeline task_chain_pipeline(const TaskChain& chain)
{
  return Pipeline{std::vector<double>(chain.tasks.size(), 0.0), std::vector<double>(chain.tasks.size() + 1, 0.0)};
}

namespace {
void check_negative(const YamlNode& node, std::optional<NegativeTime> found, const std::string& function,
                    const std::string& range, int P)
{
  if (not found) return;
  found->function = function;
  node.fail(fmt::format("{}; checked for {} (P = {} processors)", found->describe(), range, P));
}

/// A table with no value for any p the task can use is a task that cannot run.
void check_table_covers(const YamlNode& node, const CostFunction& f, int lo, int P)
{
  if (f.is_table() && (f.from > P || f.last_p() < lo))
    node.fail(fmt::format("the table covers p = {}..{}, none of the p = {}..{} processors the task can use (P = {})",
                          f.from, f.last_p(), lo, P, P));
}

/// A processor's flops, sequential + parallel / p + overhead p, are summed in doubles (1e308 + 1e308 is inf, which
/// SimGrid aborts on). Convex in p: the largest value is at an end of [lo, P].
void check_program_flops(const YamlNode& node, const TaskProgram& program, int lo, int P)
{
  for (int p : {lo, P})
    if (!std::isfinite(program.flops_per_host(p)))
      node.fail(fmt::format("sequential + parallel / p + overhead p is {} flops per processor at p = {}, past the "
                            "largest double (checked for p = {}..{}); give the program in larger units (e.g. Gflop, "
                            "with the platform's speeds to match)",
                            program.flops_per_host(p), p, lo, P));
}

void check_task(const TaskChainSpec& spec, int i, int P)
{
  const TaskChain& chain                = spec.chain;
  const TaskChainSpec::TaskNodes& nodes = spec.nodes[static_cast<std::size_t>(i - 1)];
  const Task& task                      = chain.task(i);
  if (task.p_min > P) nodes.p_min->fail(fmt::format("expected at most P = {}: the platform has {} processors", P, P));
  if (int need = processors_for_memory(task.memory, chain.processor_memory); need > P)
    nodes.memory->fail(fmt::format("needs {} processors of memory {} (processor_memory), more than P = {}", need,
                                   chain.processor_memory, P));
  int lo = task_p_min(chain, i);
  if (nodes.program) check_program_flops(*nodes.program, chain.program(i), lo, P);
  const YamlNode& exec = nodes.exec ? *nodes.exec : *nodes.program; // derived from the program when not given
  std::string range    = fmt::format("p = {}..{}", lo, P);
  if (not task.exec.is_missing()) {
    check_table_covers(exec, task.exec, lo, P);
    check_negative(exec, first_negative(task.exec, lo, P), "f_exec", range, P);
  }
  if (i == 1 && spec.input) check_negative(*spec.input, first_negative(chain.input, lo, P), "input", range, P);
  if (i == chain.k() && spec.output)
    check_negative(*spec.output, first_negative(chain.output, lo, P), "output", range, P);
  if (i == chain.k()) return;
  int next = task_p_min(chain, i + 1);
  if (nodes.icom) // given (not measured by `pipesim fit`)
    check_negative(*nodes.icom, first_negative(chain.icom_after(i), std::max(lo, next), P), "f_icom",
                   fmt::format("p = {}..{}", std::max(lo, next), P), P);
  if (nodes.ecom)
    check_negative(*nodes.ecom, first_negative(chain.ecom_after(i), lo, P, next, P), "f_ecom",
                   fmt::format("ps = {}..{}, pr = {}..{}", lo, P, next, P), P);
}
} // namespace

void check_task_chain_spec(const TaskChainSpec& spec, int P)
{
  for (int i = 1; i <= spec.chain.k(); ++i)
    check_task(spec, i, P);
}

void require_task_chain_functions(const TaskChainSpec& spec, const Platform& platform)
{
  const TaskChain& chain = spec.chain;
  for (int i = 1; i <= chain.k(); ++i) {
    const TaskChainSpec::TaskNodes& nodes = spec.nodes[static_cast<std::size_t>(i - 1)];
    if (chain.task(i).exec.is_missing()) {
      auto [slow, fast] = std::ranges::minmax_element(platform.processors(), {}, &Processor::speed);
      nodes.program->fail(fmt::format("no `exec` given, and f_exec follows from the program only on processors of one "
                                      "speed ({} has {:g} flop/s, {} {:g}): give `exec`, or run `pipesim fit`, which "
                                      "measures it",
                                      slow->name, slow->speed, fast->name, fast->speed));
    }
    for (auto [key, missing] : {std::pair{"icom", i < chain.k() && chain.icom_after(i).is_missing()},
                                std::pair{"ecom", i < chain.k() && chain.ecom_after(i).is_missing()}})
      if (missing)
        nodes.task.fail_key(fmt::format("missing key '{}': the mappers need the time towards {} (seed 001 §2.1); give "
                                        "it, or run `pipesim fit`, which measures it from the programs",
                                        key, chain.task_name(i + 1)));
  }
}

namespace {
/// sv95 §2.2: each processor belongs to one instance of one module (sum_j r_j p_j <= P), and an instance is busy
/// for its whole response time (§2.1): two modules on one processor would need it more than 100 % of the time.
void check_modules_do_not_share(const MappingSpec& mapping)
{
  std::map<std::string, std::size_t> module_of; // host -> the interval (module) one of whose instances holds it
  for (std::size_t j = 0; j < mapping.intervals.size(); ++j)
    for (std::size_t r = 0; r < mapping.intervals[j].replicas.size(); ++r) {
      const MappingSpec::Group& group = mapping.intervals[j].replicas[r];
      for (const std::string& host : group.hosts) {
        auto [it, added] = module_of.emplace(host, j);
        if (added || it->second == j) continue; // within one module: resolve_mapping names the replica
        throw InputError::at(
            mapping.file, group.line, fmt::format("mapping[{}].replicas[{}]", j, r), host,
            fmt::format("processor {} already runs an instance of module {} (mapping[{}]); seed 001 gives each "
                        "processor to one instance of one module (an instance is busy for its whole response time), "
                        "so two modules never share a processor",
                        host, it->second + 1, it->second));
      }
    }
}
} // namespace

void check_task_chain_mapping(const TaskChainSpec& spec, const MappingSpec& mapping)
{
  const TaskChain& chain = spec.chain;
  check_modules_do_not_share(mapping);
  for (std::size_t j = 0; j < mapping.intervals.size(); ++j) {
    const MappingSpec::IntervalSpec& in = mapping.intervals[j];
    auto fail                           = [&](const std::string& what) {
      throw InputError::at(mapping.file, in.line, fmt::format("mapping[{}].replicas", j), what);
    };
    std::size_t r = in.replicas.size();
    if (r > 1)
      for (int i = in.first; i <= in.last; ++i)
        if (not chain.task(i).replicable)
          fail(fmt::format("{} instances of the module of tasks {}..{}, but task {} ({}) is not replicable "
                           "(task_chain.tasks[{}].replicable: false)",
                           r, in.first, in.last, i, chain.task_name(i), i - 1));
    if (r > 1 && in.replication != Replication::deal)
      fail("the instances of a replicated seed 001 module take the data sets in turn: replication: deal");
    std::size_t p = in.replicas.empty() ? 0 : in.replicas.front().hosts.size();
    for (const auto& group : in.replicas)
      if (group.hosts.size() != p)
        fail(fmt::format("instances of {} and {} processors; a seed 001 module (T, r, p) has p in each", p,
                         group.hosts.size()));
    if (int p_min = module_p_min(chain, in.first, in.last); static_cast<int>(p) < p_min)
      fail(fmt::format("{} processors per instance, below the {} the module of tasks {}..{} needs (p_min, memory)", p,
                       p_min, in.first, in.last));
  }
}

} // namespace pipesim
