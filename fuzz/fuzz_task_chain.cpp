// libFuzzer harness: sv95 task chains (scenarios/task_chain_spec.hpp), their programs and their explicit mappings
// of modules (dealt instances), on 16 processors P1..P16 (P_in "in", P_out "out") of one speed, then of 16 speeds.
// The input is a scenario (its `task_chain:` and `mapping:` are read) or the task_chain section alone. What the
// loader accepts is then evaluated as `pipesim map` and `fit` would: the modules and §2.2's period, the fit's samples
// and the programs' flops and bytes. Seeded with the shipped chains and fuzz/seeds/task_chain.
#include "base/yaml_node.hpp"
#include "fuzz/fuzz_common.hpp"
#include "model/sv95/fit.hpp"
#include "model/sv95/program.hpp"
#include "model/sv95/response.hpp"
#include "scenarios/mapping_spec.hpp"
#include "scenarios/scenario.hpp"

namespace {

pipesim::Platform fixed_platform(bool one_speed)
{
  std::vector<pipesim::Processor> processors;
  for (int u = 1; u <= 16; ++u)
    processors.push_back({"P" + std::to_string(u), one_speed ? 2.0 : double(u), 0.01});
  return pipesim::Platform(processors, "in", "out", 10.0, 0.1);
}

/// Past the loader: the chain and mapping evaluated. The model's refusals are keyed; `sources` gives them the input's
/// lines, as `pipesim map` and `fit` do (a refusal without its place is a finding).
void evaluate(const pipesim::TaskChainSpec& spec, const pipesim::Mapping* mapping, int P,
              const pipesim::SourceMap& sources)
{
  using namespace pipesim;
  const TaskChain& chain = spec.chain;
  fuzz::guarded(fuzz::label, [&] {
    with_sources(sources, [&] {
      if (mapping) {
        std::vector<Sv95Module> modules = sv95_modules(*mapping);
        check_modules(chain, modules, P);
        (void)sv95_evaluate(chain, modules);
      }
      for (int samples : {5, 8})
        (void)evaluate_samples(chain, fit_plan(chain, P, samples));
    });
  });
  if (!chain.has_programs()) return;
  for (const TaskProgram& program : chain.programs)
    for (int ps = 1; ps <= 3; ++ps) {
      (void)program_exec(program, 2.0)(ps);
      for (int pr = 1; pr <= 3; ++pr)
        (void)redistribution_bytes(program, ps, pr);
      (void)internal_redistribution_bytes(program, ps);
    }
}

/// The loader on `node` (the task_chain section of `root`), then the chain's functions on both platforms and the
/// evaluation; every refusal is located through `sources`.
void check(const pipesim::YamlNode& root, const pipesim::YamlNode& node, const pipesim::SourceMap& sources)
{
  using namespace pipesim;
  static const Platform one_speed = fixed_platform(true), speeds = fixed_platform(false);
  const TaskChainSpec given = parse_task_chain_spec(node);
  std::optional<MappingSpec> mapping_spec;
  if (root.has("task_chain") && root.has("mapping")) {
    mapping_spec = parse_mapping_spec(root.at("mapping"));
    check_mapping_stages(*mapping_spec, given.chain.k());
    check_task_chain_mapping(given, *mapping_spec);
  }
  fuzz::guarded(fuzz::label, [&] { // processors of 16 speeds: f_exec of a program is not derivable
    with_sources(sources, [&] {
      TaskChainSpec spec = given;
      complete_task_chain_spec(spec, speeds);
      check_task_chain_spec(spec, speeds.p());
      require_task_chain_functions(spec, speeds);
    });
  });
  TaskChainSpec spec = given;
  complete_task_chain_spec(spec, one_speed);
  check_task_chain_spec(spec, one_speed.p());
  std::optional<Mapping> mapping;
  if (mapping_spec) mapping = resolve_mapping(*mapping_spec, task_chain_pipeline(spec.chain), one_speed);
  require_task_chain_functions(spec, one_speed);
  evaluate(spec, mapping ? &*mapping : nullptr, one_speed.p(), sources);
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
  using namespace pipesim;
  return fuzz::guarded(fuzz::label, [&] {
    YamlNode root = load_yaml_text(fuzz::text_of(data, size), fuzz::label);
    YamlNode node = root.has("task_chain") ? root.at("task_chain") : root;
    SourceMap sources; // the input is a scenario, or its task_chain section alone
    sources.add(root.has("task_chain") ? "" : "task_chain", root);
    with_sources(sources, [&] { check(root, node, sources); });
  });
}
