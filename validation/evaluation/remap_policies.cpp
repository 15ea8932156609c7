// The re-mapping policies (remap_policies.hpp).
#include "validation/evaluation/remap_policies.hpp"

#include "base/input_error.hpp"
#include "model/analysis.hpp"
#include "model/event_graph.hpp"
#include "platforms/profile.hpp"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <limits>
#include <map>

namespace pipesim {

double predicted_period(const Pipeline& pipeline, const Platform& platform, const Mapping& mapping, CommModel model,
                        int buffer)
{
  if (model == CommModel::multi_port) return analyze_multiport(pipeline, platform, mapping, buffer).period;
  CycleRatioResult cr = max_cycle_ratio(build_oneport_event_graph(pipeline, platform, mapping));
  return cr.deadlock ? std::numeric_limits<double>::infinity() : cr.period;
}

MeasuredModel::MeasuredModel(const Platform& nominal, CommModel model) : model_(nominal), comm_(model)
{
  model_.set_profiles({});
}

void MeasuredModel::update(const WindowMeasurement& window)
{
  for (const IntervalMeasure& m : window.intervals)
    if (m.node >= 0 && m.time > 0) model_.processor(m.node).speed = m.work / m.time;
  if (comm_ == CommModel::multi_port) return; // a transfer's time there includes the cards' sharing: links nominal
  for (const LinkMeasure& l : window.links) {
    const double c   = model_.latency(l.from, l.to);
    const double net = l.time - l.count * c;
    if (l.bytes > 0 && net > 0) model_.set_link(l.from, l.to, l.bytes / net, c);
  }
}

std::vector<int> survivor_indices(int p, const std::vector<int>& dead)
{
  std::vector<int> alive;
  for (int u = 0; u < p; ++u)
    if (std::ranges::find(dead, u) == dead.end()) alive.push_back(u);
  return alive;
}

Platform survivors_platform(const Platform& platform, const std::vector<int>& dead)
{
  const std::vector<int> alive = survivor_indices(platform.p(), dead);
  std::vector<Processor> processors;
  for (int u : alive)
    processors.push_back(platform.processor(u));
  Platform sub(processors, platform.in_name(), platform.out_name());
  auto whole = [&](int x) {
    if (x < sub.p()) return alive[static_cast<std::size_t>(x)];
    return x == sub.in() ? platform.in() : platform.out();
  };
  for (int x = 0; x < sub.nodes(); ++x)
    for (int y = 0; y < sub.nodes(); ++y)
      if (x != y) sub.set_link(x, y, platform.bandwidth(whole(x), whole(y)), platform.latency(whole(x), whole(y)));
  return sub;
}

namespace {
/// What every policy shares: the mapper, the problem, the measured model.
class MapperPolicy : public RemapPolicy {
public:
  MapperPolicy(std::string mapper, PolicyContext context)
      : mapper_(std::move(mapper)), context_(std::move(context)),
        measured_(context_.problem.platform, context_.problem.model)
  {
  }
  /// on_crash: remap: the mapper on the model of repair_model() without the dead processors.
  std::optional<RemapDecision> repair(const RemapView& view) override
  {
    measure(view);
    const Platform model     = repair_model(view);
    std::optional<Mapping> m = map_on(survivors_platform(model, *view.dead), *view.dead, model.p());
    if (!m) return std::nullopt;
    repaired(*m, model, view);
    return RemapDecision{*m, "", false};
  }

protected:
  /// The model a repair maps on: the measured one (the clairvoyant policy: the platform of the date).
  virtual Platform repair_model(const RemapView&) const { return measured(); }
  /// A repair chose `mapping` on `model` (the threshold policy predicts its period from then on).
  virtual void repaired(const Mapping& mapping, const Platform& model, const RemapView& view)
  {
    (void)mapping;
    (void)model;
    (void)view;
  }
  /// Takes in the windows closed since the last call.
  void measure(const RemapView& view)
  {
    for (std::size_t i = view.windows->size() - view.new_windows; i < view.windows->size(); ++i)
      measured_.update((*view.windows)[i]);
  }
  /// The mapper's mapping on `platform`, or nothing when it finds none.
  std::optional<Mapping> map_on(const Platform& platform) const
  {
    Problem problem  = context_.problem;
    problem.platform = platform;
    MapperResult r   = run_mapper(mapper_, problem, context_.options);
    if (r.status == SolveStatus::infeasible || r.mapping.intervals.empty()) return std::nullopt;
    return r.mapping;
  }
  /// The mapper's mapping on the survivors' platform (survivors_platform), its processors numbered as in the whole
  /// platform of p processors.
  std::optional<Mapping> map_on(const Platform& survivors, const std::vector<int>& dead, int p) const
  {
    if (survivors.p() == 0) return std::nullopt;
    std::optional<Mapping> m = map_on(survivors);
    if (!m) return std::nullopt;
    const std::vector<int> alive = survivor_indices(p, dead);
    for (Interval& in : m->intervals)
      for (ProcessorGroup& g : in.replicas)
        for (int& u : g)
          u = alive.at(static_cast<std::size_t>(u));
    return m;
  }
  double period_on(const Platform& platform, const Mapping& mapping) const
  {
    return predicted_period(context_.problem.pipeline, platform, mapping, context_.problem.model, context_.buffer);
  }
  const Platform& measured() const { return measured_.platform(); }

private:
  std::string mapper_;
  PolicyContext context_;
  MeasuredModel measured_;
};

class StaticPolicy final : public MapperPolicy {
public:
  using MapperPolicy::MapperPolicy;
  std::optional<RemapDecision> decide(const RemapView&) override { return std::nullopt; }
};

class PeriodicPolicy final : public MapperPolicy {
public:
  PeriodicPolicy(std::string mapper, PolicyContext context, double period)
      : MapperPolicy(std::move(mapper), std::move(context)), period_(period), due_(period)
  {
  }
  double next_date(double) const override { return due_; }
  std::optional<RemapDecision> decide(const RemapView& view) override
  {
    measure(view);
    if (view.now < due_) return std::nullopt;
    while (due_ <= view.now)
      due_ += period_;
    std::optional<Mapping> m = map_on(measured());
    if (!m) return std::nullopt;
    return RemapDecision{*m, fmt::format("periodic (every {:g} s)", period_), false};
  }

private:
  double period_ = 0;
  double due_    = 0;
};

class ThresholdPolicy final : public MapperPolicy {
public:
  ThresholdPolicy(std::string mapper, PolicyContext context, const DynamicSpec& spec, const Mapping& initial)
      : MapperPolicy(std::move(mapper), context), threshold_(spec.threshold), windows_(spec.windows),
        predicted_(period_on(context.problem.platform, initial))
  {
  }
  std::optional<RemapDecision> decide(const RemapView& view) override;

protected:
  void repaired(const Mapping& mapping, const Platform& model, const RemapView& view) override
  {
    predicted_ = period_on(model, mapping);
    since_     = view.next_dataset;
    above_     = 0;
  }

private:
  double threshold_ = 10;
  int windows_      = 2;
  double predicted_ = 0;
  int above_        = 0; // windows in a row above the threshold
  int since_        = 0; // the first data set of the running mapping
};

std::optional<RemapDecision> ThresholdPolicy::decide(const RemapView& view)
{
  measure(view);
  for (std::size_t i = view.windows->size() - view.new_windows; i < view.windows->size(); ++i) {
    const WindowMeasurement& w = (*view.windows)[i];
    if (w.disturbed || w.first < since_) continue; // the previous mapping's data sets, or a re-map's downtime
    above_ = w.period > predicted_ * (1 + threshold_ / 100) ? above_ + 1 : 0;
  }
  if (above_ < windows_) return std::nullopt;
  above_                   = 0;
  const double measured_at = (*view.windows).back().period;
  std::optional<Mapping> m = map_on(measured());
  if (!m || same_mapping(*m, *view.mapping)) { // the mapping is still the best one: expect what it gives now
    predicted_ = period_on(measured(), *view.mapping);
    return std::nullopt;
  }
  std::string reason = fmt::format("threshold: period {:.6g} s > {:.6g} s predicted + {:g} % for {} windows",
                                   measured_at, predicted_, threshold_, windows_);
  predicted_         = period_on(measured(), *m);
  since_             = view.next_dataset;
  return RemapDecision{*m, reason, false};
}

class ClairvoyantPolicy final : public MapperPolicy {
public:
  ClairvoyantPolicy(std::string mapper, PolicyContext context)
      : MapperPolicy(std::move(mapper), context), platform_(context.problem.platform),
        dates_(profile_change_dates(platform_, 1e15, 100'000))
  {
  }
  double next_date(double now) const override
  {
    auto it = std::upper_bound(dates_.begin(), dates_.end(), now);
    return it == dates_.end() ? std::numeric_limits<double>::infinity() : *it;
  }
  std::optional<RemapDecision> decide(const RemapView& view) override
  {
    if (!std::binary_search(dates_.begin(), dates_.end(), view.now)) return std::nullopt; // a regular check
    std::optional<Mapping> m = map_on(platform_at(platform_, view.now));
    if (!m) return std::nullopt;
    return RemapDecision{*m, fmt::format("clairvoyant: the platform changes at {:g} s", view.now), true};
  }

protected:
  Platform repair_model(const RemapView& view) const override { return platform_at(platform_, view.now); }

private:
  Platform platform_;
  std::vector<double> dates_;
};

/// The factories of the registered policies (their names are in registered_policy_names(), which the parser reads).
std::map<std::string, RemapPolicyFactory>& policy_factories()
{
  static std::map<std::string, RemapPolicyFactory> factories;
  return factories;
}
} // namespace

void register_remap_policy(const std::string& name, RemapPolicyFactory factory)
{
  if (name.empty()) throw InputError::keyed("dynamic.policy", name, "a registered re-mapping policy needs a name");
  if (auto builtin = from_string<RemapPolicyKind>(name))
    throw InputError::keyed("dynamic.policy", name,
                            "is a built-in policy's name; give the registered one another name");
  policy_factories()[name] = std::move(factory);
  registered_policy_names().insert(name);
}

std::shared_ptr<RemapPolicy> make_remap_policy(const DynamicSpec& spec, const std::string& scenario_mapper,
                                               const PolicyContext& context, const Mapping& initial)
{
  const std::string mapper = spec.mapper.empty() ? scenario_mapper : spec.mapper;
  switch (spec.policy) {
  case RemapPolicyKind::static_mapping:
    return std::make_shared<StaticPolicy>(mapper, context);
  case RemapPolicyKind::periodic:
    return std::make_shared<PeriodicPolicy>(mapper, context, spec.period);
  case RemapPolicyKind::threshold:
    return std::make_shared<ThresholdPolicy>(mapper, context, spec, initial);
  case RemapPolicyKind::clairvoyant:
    return std::make_shared<ClairvoyantPolicy>(mapper, context);
  case RemapPolicyKind::registered: {
    auto it = policy_factories().find(spec.name);
    if (it == policy_factories().end())
      throw InputError::keyed("dynamic.policy", spec.name, "unknown policy (not registered in this process)");
    return it->second(PolicySetup{spec, mapper, context, initial});
  }
  }
  throw InputError::keyed("dynamic.policy", static_cast<int>(spec.policy), "unknown policy");
}

} // namespace pipesim
