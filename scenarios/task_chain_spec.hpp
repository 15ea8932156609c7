// Reading and checking the `task_chain:` section of a scenario: sv95's tasks with their cost model (§2.1, §5),
// memory needs and replicability (docs/scenarios.md, docs/sv95.md).
#pragma once

#include "base/yaml_node.hpp"
#include "model/pipeline.hpp"
#include "model/sv95/task_chain.hpp"
#include "platforms/platform.hpp"

#include <optional>
#include <string>
#include <vector>

namespace pipesim {

struct MappingSpec;

/// The chain as read, with the YAML nodes its later checks name (file, line, key and value).
struct TaskChainSpec {
  struct TaskNodes {
    YamlNode task;
    std::optional<YamlNode> exec, p_min, memory, replicable, icom, ecom, program;
  };
  TaskChain chain;
  std::vector<TaskNodes> nodes; // per task
  std::optional<YamlNode> input, output, processor_memory;
  std::optional<YamlNode> root;
};

/// Reads `task_chain: {tasks: [...], input, output, processor_memory}`. Each task:
/// `{name, exec, p_min, memory, replicable, icom, ecom, program}`; `exec` is required unless the task has a `program`
/// (`{sequential, parallel, overhead, output, distribution}`: flops and bytes >= 0, block or transpose; every task
/// has one or none does; docs/sv95.md "Simulation (programs)"), `icom` and `ecom` (the functions
/// towards the next task) are required on every task but the last and refused on the last. A time function is a
/// number (a constant), a list of sv95 §5's coefficients ([C1, C2, C3] for exec, icom, input and output;
/// [C1, C2, C3, C4, C5] for ecom), or `{table: [...], from: p}` (values for p = from, from + 1, ...; ecom:
/// `{table: [[...], ...], from: [ps, pr]}`, rows by sender). Values checked here: coefficients finite, table values
/// >= 0 and finite, p_min an integer >= 1, memory >= 0, processor_memory > 0, replicable a boolean.
TaskChainSpec parse_task_chain_spec(const YamlNode& node);

/// The functions a program chain leaves out, derived on `platform` where they are exact: f_exec of a task with a
/// `program` and no `exec` is program_exec at the processors' speed, when they all have the same speed (otherwise
/// an InputError at the task's `program` names the speeds and asks for `exec`). Tasks with `exec` keep it.
void complete_task_chain_spec(TaskChainSpec& spec, const Platform& platform);

/// The pipeline that stands for the chain in the scenario: one stage per task, w = 0, delta = 0 (the mappers and
/// evaluators of sv95 read the task chain).
Pipeline task_chain_pipeline(const TaskChain& chain);

/// The checks that need the number of processors P: no task needs more than P processors (p_min, or its memory
/// over processor_memory), no table ends below its task's minimum or starts above P, and no time is negative for
/// any p the mappers may use (f_exec over [the task's minimum, P], f_icom over the larger of both tasks' minimums,
/// f_ecom over both ranges, input and output over the first and last tasks' ranges). The error names the key,
/// its value and line, the p found, and the limit.
void check_task_chain_spec(const TaskChainSpec& spec, int P);

/// The functions the mappers need and the scenario leaves to be measured (a chain of programs without `icom`,
/// `ecom`, or `exec` on processors of different speeds): InputError at the task's line, pointing to `pipesim fit`.
void require_task_chain_functions(const TaskChainSpec& spec, const Platform& platform);

/// An explicit mapping of a scenario with a task chain: each interval is a module, its replicas the instances.
/// Errors (at the interval's line): a replicated module holding a task that is not replicable (naming it), a
/// replicated module not dealt (`replication: deal`), instances of different sizes, or below the module's minimum;
/// (at the replica's line) a processor that an earlier module already holds (sv95: one instance of one module
/// per processor).
void check_task_chain_mapping(const TaskChainSpec& spec, const MappingSpec& mapping);

} // namespace pipesim
