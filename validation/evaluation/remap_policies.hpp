// The re-mapping policies of DESIGN.md §3.12 (static, periodic, threshold, clairvoyant), built above the simulator:
// each is a RemapPolicy (simulator/remap.hpp) that runs a registered mapper on a model built from the measurements.
#pragma once

#include "mappers/mapper.hpp"
#include "scenarios/dynamic_spec.hpp"
#include "simulator/remap.hpp"

#include <functional>
#include <memory>

namespace pipesim {

/// What a policy needs besides its spec: the problem the scenario maps (pipeline, nominal platform with its profiles,
/// communication model, objective), the mapper's options and the multi-port buffer.
struct PolicyContext {
  Problem problem;
  MapperOptions options;
  int buffer = 1;
};

/// The steady period of `mapping` on `platform` in `model` (one-port: the event graph; multi-port: bbr10's Algorithm
/// 1 or the allotted event graph), the figure a policy predicts.
double predicted_period(const Pipeline& pipeline, const Platform& platform, const Mapping& mapping, CommModel model,
                        int buffer);

/// The model a policy maps on (docs/dynamic.md, "The measured model"): `nominal` with each processor's speed the
/// work over the compute time of its latest window, and (one-port) each measured pair's bandwidth the bytes over the
/// transfer time less the nominal latency. A processor or pair that no window measured keeps its last measured value
/// (`speeds`, `bandwidths`: the state carried from call to call, filled from `nominal` at first) or its nominal one.
class MeasuredModel {
public:
  MeasuredModel(const Platform& nominal, CommModel model);
  /// Takes in one window's measurements (the later ones win).
  void update(const WindowMeasurement& window);
  /// The platform model of the latest measurements (no profiles).
  const Platform& platform() const { return model_; }

private:
  Platform model_;
  CommModel comm_;
};

/// The indices 0..p-1 not in `dead`, in order.
std::vector<int> survivor_indices(int p, const std::vector<int>& dead);
/// `platform` without the processors in `dead` (processor i of the result is survivor_indices(p, dead)[i]; P_in and
/// P_out and the links between the survivors as they were): what a repair maps on (on_crash: remap).
Platform survivors_platform(const Platform& platform, const std::vector<int>& dead);

/// What a registered policy's factory is given when a run starts: the scenario's `dynamic:` section, the mapper it
/// names (dynamic.mapper, or the scenario's), the problem and the mapping the run starts with.
struct PolicySetup {
  const DynamicSpec& spec;
  const std::string& mapper;
  const PolicyContext& context;
  const Mapping& initial;
};
using RemapPolicyFactory = std::function<std::shared_ptr<RemapPolicy>(const PolicySetup&)>;

/// Makes `name` a policy `dynamic.policy` accepts (a policy written in Python: python/python_policy.cpp), built by
/// `factory` at the start of each run; registering a name again replaces its factory. InputError for a built-in
/// policy's name or an empty one.
void register_remap_policy(const std::string& name, RemapPolicyFactory factory);

/// The policy `spec` describes, mapping with spec.mapper (or `scenario_mapper`) on `context`. `initial` is the
/// mapping the run starts with (the threshold policy predicts its period on the nominal platform). InputError for an
/// unknown mapper or registered policy.
std::shared_ptr<RemapPolicy> make_remap_policy(const DynamicSpec& spec, const std::string& scenario_mapper,
                                               const PolicyContext& context, const Mapping& initial);

} // namespace pipesim
