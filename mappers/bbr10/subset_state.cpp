#include "mappers/bbr10/subset_state.hpp"

#include "model/bbr10/worst_case_period.hpp"

#include <algorithm>

namespace pipesim {

SubsetState::SubsetState(const Problem& problem, double period_bound, PeriodTest test, std::uint64_t seed)
    : problem_(&problem), bound_(period_bound), test_(test), seed_(seed),
      subset_of_stage_(static_cast<std::size_t>(problem.pipeline.n()) + 1, -1),
      owner_(static_cast<std::size_t>(problem.platform.p()), -1)
{
  rebuild();
}

void SubsetState::set_partition(const std::vector<int>& subset_of_stage, int subsets)
{
  subset_of_stage_ = subset_of_stage;
  subset_of_stage_.resize(static_cast<std::size_t>(problem_->pipeline.n()) + 1, -1);
  subset_of_stage_[0] = -1;
  stages_.assign(static_cast<std::size_t>(subsets), {});
  procs_.assign(static_cast<std::size_t>(subsets), {});
  std::fill(owner_.begin(), owner_.end(), -1);
  rebuild();
}

void SubsetState::set_stage(int stage, int k)
{
  subset_of_stage_[static_cast<std::size_t>(stage)] = k;
  rebuild();
}

void SubsetState::rebuild()
{
  ++version_;
  int n = problem_->pipeline.n();
  for (auto& list : stages_)
    list.clear();
  runs_.clear();
  runs_of_.assign(stages_.size(), {});
  for (int i = 1; i <= n; ++i) {
    int k = subset_of_stage_[static_cast<std::size_t>(i)];
    if (k >= 0) stages_[static_cast<std::size_t>(k)].push_back(i);
    if (runs_.empty() || runs_.back().k != k) {
      if (k >= 0) runs_of_[static_cast<std::size_t>(k)].push_back(static_cast<int>(runs_.size()));
      runs_.push_back(Run{i, i, k});
    } else
      runs_.back().last = i;
  }
}

std::vector<int> SubsetState::live_subsets() const
{
  std::vector<int> out;
  for (int k = 0; k < subsets(); ++k)
    if (!stages(k).empty()) out.push_back(k);
  return out;
}

std::vector<int> SubsetState::unused() const
{
  std::vector<int> out;
  for (int u = 0; u < problem_->platform.p(); ++u)
    if (!used(u)) out.push_back(u);
  return out;
}

double SubsetState::work(int k) const
{
  double sum = 0;
  for (int i : stages(k))
    sum += problem_->pipeline.work(i);
  return sum;
}

double SubsetState::output_data(int k) const
{
  double sum = 0;
  for (int r : runs_of_[static_cast<std::size_t>(k)])
    sum += problem_->pipeline.data(runs_[static_cast<std::size_t>(r)].last);
  return sum;
}

double SubsetState::terms(int u) const
{
  const Pipeline& pipeline = problem_->pipeline;
  const Platform& platform = problem_->platform;
  const int n              = pipeline.n();
  const int k              = owner_[static_cast<std::size_t>(u)];
  // bytes per neighbouring subset (-2: P_in / P_out), then per processor of that subset (subsets are disjoint, so
  // each node once)
  auto& in_subsets  = in_link_;
  auto& out_subsets = out_link_;
  in_subsets.clear();
  out_subsets.clear();
  auto add_bytes = [](std::vector<std::pair<int, double>>& links, int who, double bytes) {
    for (auto& [peer, sum] : links)
      if (peer == who) {
        sum += bytes;
        return;
      }
    links.emplace_back(who, bytes);
  };
  ProcessorLoad& load = load_;
  load.work           = work(k);
  load.in_bytes       = 0;
  load.in_links.clear();
  load.out_links.clear();
  for (int r : runs_of_[static_cast<std::size_t>(k)]) {
    const Run& run = runs_[static_cast<std::size_t>(r)];
    double in      = pipeline.data(run.first - 1);
    load.in_bytes += in;
    int before = run.first == 1 ? -2 : runs_[static_cast<std::size_t>(r) - 1].k;
    if (before != -1) add_bytes(in_subsets, before, in);
    int after = run.last == n ? -2 : runs_[static_cast<std::size_t>(r) + 1].k;
    if (after != -1) add_bytes(out_subsets, after, pipeline.data(run.last));
  }
  auto add_links = [&](const std::vector<std::pair<int, double>>& subsets, int io, auto& links) {
    for (auto [peer, bytes] : subsets)
      if (peer == -2)
        links.emplace_back(io, bytes);
      else
        for (int v : processors(peer))
          links.emplace_back(v, bytes);
  };
  add_links(in_subsets, platform.in(), load.in_links);
  add_links(out_subsets, platform.out(), load.out_links);
  return bbr10_processor_bound(platform, u, load);
}

std::vector<int> SubsetState::neighbours(int k) const
{
  std::vector<int> out;
  for (int r : runs_of_[static_cast<std::size_t>(k)])
    for (int other : {r - 1, r + 1})
      if (other >= 0 && other < static_cast<int>(runs_.size())) {
        int j = runs_[static_cast<std::size_t>(other)].k;
        if (j >= 0 && j != k && std::find(out.begin(), out.end(), j) == out.end()) out.push_back(j);
      }
  return out;
}

bool SubsetState::neighbours_fit(int k) const
{
  for (int j : neighbours(k))
    for (int v : processors(j))
      if (!within(terms(v))) return false;
  return true;
}

double SubsetState::cycle_time_with(int u, int k)
{
  attach(u, k);
  double t = test_ == PeriodTest::worst_case ? terms(u) : all_alive().best().cycle_time[static_cast<std::size_t>(u)];
  detach(u);
  return t;
}

std::optional<double> SubsetState::fitting_cycle_time(int u, int k)
{
  if (test_ == PeriodTest::worst_case) return fits(u, k) ? std::optional<double>(cycle_time_with(u, k)) : std::nullopt;
  attach(u, k);
  std::optional<double> t;
  if (election_free_terms_fit(u, k)) { // one best election gives both the test and u's cycle-time
    AllAlivePeriod best = all_alive().best();
    if (within(best.period)) t = best.cycle_time[static_cast<std::size_t>(u)];
  }
  detach(u);
  return t;
}

std::optional<double> SubsetState::cycle_time_bound(int u, int k)
{
  attach(u, k);
  std::optional<double> t;
  if (election_free_terms_fit(u, k)) t = terms(u);
  detach(u);
  return t;
}

bool SubsetState::election_free_terms_fit(int u, int k) const
{
  const Processor& pu = problem_->platform.processor(u);
  double in_bytes     = 0;
  for (int r : runs_of_[static_cast<std::size_t>(k)])
    in_bytes += problem_->pipeline.data(runs_[static_cast<std::size_t>(r)].first - 1);
  return within(work(k) / pu.speed) && within(in_bytes / pu.nic_in);
}

bool SubsetState::fits(int u, int k)
{
  bool worst_case_holds = test_ == PeriodTest::worst_case || within(cached_period_bound());
  attach(u, k);
  bool ok =
      test_ == PeriodTest::worst_case ? within(terms(u)) && neighbours_fit(k) : fits_all_alive(u, k, worst_case_holds);
  detach(u);
  return ok;
}

bool SubsetState::fits_all_alive(int u, int k, bool worst_case_held)
{
  // Algorithm 1's compute and input-card terms of u are the same in every election: refused without one
  if (!election_free_terms_fit(u, k)) return false;
  // The worst-case bound dominates every configuration and election: accepted without one when it still holds
  // (checked incrementally, as the worst-case test does, when it held before u joined)
  if (worst_case_held && within(terms(u)) && neighbours_fit(k)) return true;
  return all_alive().within(bound_ * (1 + 1e-12));
}

double SubsetState::cached_period_bound() const
{
  if (bound_version_ != version_) {
    bound_cache_   = period_bound();
    bound_version_ = version_;
  }
  return bound_cache_;
}

AllAliveEvaluator& SubsetState::all_alive() const
{
  if (!evaluator_) evaluator_ = std::make_shared<AllAliveEvaluator>(problem_->pipeline, problem_->platform, seed_);
  evaluator_->clear();
  for (const Run& run : runs_) {
    sorted_.clear();
    if (run.k >= 0) sorted_ = processors(run.k);
    std::sort(sorted_.begin(), sorted_.end()); // replica order: mapping()'s
    evaluator_->add_interval(run.first, run.last, sorted_);
  }
  return *evaluator_;
}

void SubsetState::add(int u, int k)
{
  attach(u, k);
  ++version_;
}

void SubsetState::remove(int u)
{
  detach(u);
  ++version_;
}

void SubsetState::attach(int u, int k)
{
  procs_[static_cast<std::size_t>(k)].push_back(u);
  owner_[static_cast<std::size_t>(u)] = k;
}

void SubsetState::detach(int u)
{
  int k       = owner_[static_cast<std::size_t>(u)];
  auto& procs = procs_[static_cast<std::size_t>(k)];
  procs.erase(std::find(procs.begin(), procs.end(), u));
  owner_[static_cast<std::size_t>(u)] = -1;
}

void SubsetState::merge_stages(int into, int from)
{
  for (int i : stages(from))
    subset_of_stage_[static_cast<std::size_t>(i)] = into;
  for (int u : std::vector<int>(processors(from)))
    remove(u);
  rebuild();
}

double SubsetState::subset_failure(int k) const
{
  if (processors(k).empty()) return 1.0;
  double product = 1;
  for (int u : processors(k))
    product *= problem_->platform.processor(u).failure_probability;
  return product;
}

double SubsetState::failure_probability() const
{
  for (int i = 1; i <= problem_->pipeline.n(); ++i)
    if (subset_of_stage_[static_cast<std::size_t>(i)] < 0) return 1.0;
  double success = 1;
  for (int k : live_subsets())
    success *= 1 - subset_failure(k);
  return 1 - success;
}

bool SubsetState::complete() const
{
  for (const Run& run : runs_)
    if (run.k < 0 || processors(run.k).empty()) return false;
  return true;
}

double SubsetState::period() const
{
  if (test_ == PeriodTest::worst_case) return period_bound();
  return all_alive().best().period;
}

Mapping SubsetState::partial_mapping() const
{
  Mapping mapping;
  for (const Run& run : runs_) {
    Interval interval;
    interval.first = run.first;
    interval.last  = run.last;
    if (run.k >= 0) {
      auto procs = processors(run.k);
      std::sort(procs.begin(), procs.end());
      for (int u : procs)
        interval.replicas.push_back(ProcessorGroup{u});
    }
    mapping.intervals.push_back(std::move(interval));
  }
  return mapping;
}

double SubsetState::period_bound() const
{
  double bound = 0;
  for (int u = 0; u < problem_->platform.p(); ++u)
    if (used(u)) bound = std::max(bound, terms(u));
  return bound;
}

Mapping SubsetState::mapping() const
{
  return partial_mapping(); // complete: every interval has its subset's processors
}

} // namespace pipesim
