// Seeded random interval and one-to-one mappings.
#include "mappers/random/random_mapper.hpp"

#include "base/random.hpp"
#include "model/analysis.hpp"
#include "model/analytic.hpp"
#include "model/multiport_analytic.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <limits>

namespace pipesim {

namespace {
void shuffle(std::vector<int>& v, Rng& rng)
{
  for (std::size_t i = v.size(); i > 1; --i)
    std::swap(v[i - 1], v[static_cast<std::size_t>(rng.integer(0, static_cast<long long>(i - 1)))]);
}
} // namespace

Mapping random_interval_mapping(int n, int p, std::uint64_t seed, bool one_to_one)
{
  Rng rng(seed);
  int m = one_to_one ? n : static_cast<int>(rng.integer(1, std::min(n, p)));
  std::vector<int> cuts; // m - 1 distinct cut points among 1..n-1
  for (int i = 1; i < n; ++i)
    cuts.push_back(i);
  shuffle(cuts, rng);
  cuts.resize(static_cast<std::size_t>(m - 1));
  std::sort(cuts.begin(), cuts.end());
  std::vector<std::pair<int, int>> intervals;
  int first = 1;
  for (int c : cuts) {
    intervals.emplace_back(first, c);
    first = c + 1;
  }
  intervals.emplace_back(first, n);
  std::vector<int> procs;
  for (int u = 0; u < p; ++u)
    procs.push_back(u);
  shuffle(procs, rng);
  procs.resize(static_cast<std::size_t>(m));
  return make_interval_mapping(intervals, procs);
}

Mapping random_replicated_mapping(int n, int p, std::uint64_t seed, int max_replicas)
{
  Rng rng(seed);
  Mapping mapping       = random_interval_mapping(n, p, seed, false);
  int m                 = mapping.m();
  rng                   = Rng(seed ^ 0x5EEDULL); // a stream of its own for the replicas
  std::vector<int> used = mapping.processors(), spare;
  for (int u = 0; u < p; ++u)
    if (std::ranges::count(used, u) == 0) spare.push_back(u);
  shuffle(spare, rng);
  for (int j = 0; j < m && !spare.empty(); ++j) {
    auto extra = static_cast<int>(rng.integer(0, max_replicas - 1));
    for (int r = 0; r < extra && !spare.empty(); ++r) {
      mapping.intervals[static_cast<std::size_t>(j)].replicas.push_back({spare.back()});
      spare.pop_back();
    }
  }
  return mapping;
}

Mapping random_stage_sets_mapping(int n, int p, std::uint64_t seed, int max_set)
{
  Rng rng(seed ^ 0x57A6E5E7ULL);
  std::vector<int> procs(static_cast<std::size_t>(p));
  for (int u = 0; u < p; ++u)
    procs[static_cast<std::size_t>(u)] = u;
  Mapping mapping;
  std::vector<int> previous;
  for (int i = 1; i <= n; ++i) {
    auto k = static_cast<std::size_t>(rng.integer(1, std::min(max_set, p)));
    for (std::size_t r = 0; r < k; ++r) // partial Fisher-Yates: procs[0..k) is a uniform k-subset
      std::swap(procs[r], procs[static_cast<std::size_t>(rng.integer(static_cast<long long>(r), p - 1))]);
    std::vector<int> set(procs.begin(), procs.begin() + static_cast<std::ptrdiff_t>(k));
    std::ranges::sort(set);
    if (set == previous) {
      mapping.intervals.back().last = i;
      continue;
    }
    Interval in{i, i, {}, Replication::active};
    for (int u : set)
      in.replicas.push_back({u});
    mapping.intervals.push_back(in);
    previous = set;
  }
  return mapping;
}

namespace {
/// What the random samplers are: they draw mappings (the period objective), on every platform class.
MapperInfo sampler_info(std::string name, std::string description, Paper paper, std::vector<CommModel> models,
                        MappingRule mapping)
{
  MapperInfo info;
  info.name        = std::move(name);
  info.description = std::move(description);
  info.paper       = paper;
  info.family      = MapperFamily::random;
  info.objective   = MapperObjective::none;
  info.models      = std::move(models);
  info.mapping     = mapping;
  info.complexity  = "O(n + p)";
  return info;
}

/// random.replicated: a random interval mapping whose intervals get 1..3 replicas on distinct processors (active
/// replication): the samples of survival campaigns.
class RandomReplicatedMapper : public Mapper {
public:
  MapperInfo info() const override
  {
    return sampler_info("random.replicated",
                        "seeded random interval mapping with 1..3 active replicas per interval (failure campaign "
                        "samples)",
                        Paper::pipesim, {CommModel::one_port, CommModel::multi_port}, MappingRule::interval);
  }
  MapperResult map(const Problem& problem, const MapperOptions& options) const override
  {
    MapperResult r;
    r.mapping   = random_replicated_mapping(problem.pipeline.n(), problem.platform.p(), options.seed, 3);
    r.status    = SolveStatus::feasible;
    r.objective = problem.model == CommModel::multi_port
                      ? bbr10_eq1_period(problem.pipeline, problem.platform, r.mapping)
                      : analyze_oneport(problem.pipeline, problem.platform, r.mapping).period;
    return r;
  }
};

const MapperRegistration replicated_registration([] { return std::make_unique<RandomReplicatedMapper>(); });

/// random.stage-sets (sets of 1..p processors) and random.stage-sets-5 (1..5): bbr10 §7.1's random general
/// mappings (Table 1's consensus instances).
class RandomStageSetsMapper : public Mapper {
public:
  explicit RandomStageSetsMapper(int max_set) : max_set_(max_set) {}
  MapperInfo info() const override
  {
    MapperInfo info = sampler_info(
        max_set_ > 0 ? "random.stage-sets-5" : "random.stage-sets",
        fmt::format("bbr10 §7.1: seeded random general mapping, each stage on a random set of 1..{} processors "
                    "(Table 1 samples)",
                    max_set_ > 0 ? std::to_string(max_set_) : std::string("p")),
        Paper::bbr10, {CommModel::multi_port}, MappingRule::general);
    info.restriction = "its replicated general mappings have a period in the multi-port model only";
    return info;
  }
  MapperResult map(const Problem& problem, const MapperOptions& options) const override
  {
    MapperResult r;
    int p     = problem.platform.p();
    r.mapping = random_stage_sets_mapping(problem.pipeline.n(), p, options.seed, max_set_ > 0 ? max_set_ : p);
    r.status  = SolveStatus::feasible;
    auto all  = FailureConfiguration::all_alive(problem.platform);
    r.objective =
        bbr10_period(problem.pipeline, problem.platform, r.mapping, all, first_alive_election(r.mapping, all));
    return r;
  }

private:
  int max_set_; // 0: p
};

const MapperRegistration stage_sets_registration([] { return std::make_unique<RandomStageSetsMapper>(0); });
const MapperRegistration stage_sets_5_registration([] { return std::make_unique<RandomStageSetsMapper>(5); });

class RandomMapper : public Mapper {
public:
  explicit RandomMapper(bool one_to_one) : one_to_one_(one_to_one) {}
  MapperInfo info() const override
  {
    std::vector<CommModel> models{CommModel::one_port, CommModel::multi_port};
    return one_to_one_
               ? sampler_info("random.one-to-one", "seeded random one-to-one mapping (fidelity samples; n <= p)",
                              Paper::pipesim, models, MappingRule::one_to_one)
               : sampler_info("random.interval", "seeded random interval mapping (fidelity samples)", Paper::pipesim,
                              models, MappingRule::interval);
  }
  MapperResult map(const Problem& problem, const MapperOptions& options) const override
  {
    MapperResult r;
    int n = problem.pipeline.n();
    int p = problem.platform.p();
    if (one_to_one_ && n > p) {
      r.status    = SolveStatus::infeasible;
      r.objective = std::numeric_limits<double>::infinity();
      return r;
    }
    r.mapping   = random_interval_mapping(n, p, options.seed, one_to_one_);
    r.status    = SolveStatus::feasible;
    r.objective = br07_eq2_period(problem.pipeline, problem.platform, r.mapping);
    return r;
  }

private:
  bool one_to_one_;
};

const MapperRegistration interval_registration([] { return std::make_unique<RandomMapper>(false); });
const MapperRegistration one_to_one_registration([] { return std::make_unique<RandomMapper>(true); });
} // namespace

} // namespace pipesim
