// Reference optimum of interval mappings by counts of used processors per class of twins.
#include "mappers/exact/class_count_fixtures.hpp"

#include "base/random.hpp"
#include "model/analytic.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <limits>
#include <stdexcept>
#include <unordered_map>

namespace pipesim::fixtures {

ClassedProblem classed_instance(std::uint64_t seed, int n, int p, int classes, bool uniform_links)
{
  Rng rng(seed);
  ClassedProblem out;
  Problem& problem = out.problem;
  for (int i = 0; i < n; ++i)
    problem.pipeline.w.push_back(static_cast<double>(rng.integer(1, 20)));
  for (int i = 0; i <= n; ++i)
    problem.pipeline.delta.push_back(static_cast<double>(rng.integer(1, 100)));
  std::vector<double> speed;
  for (int k = 0; k < classes; ++k)
    speed.push_back(rng.uniform(1, 20));
  std::vector<Processor> processors;
  for (int u = 0; u < p; ++u) {
    int k = u < classes ? u : static_cast<int>(rng.integer(0, classes - 1)); // every class has a member
    out.class_of.push_back(k);
    processors.push_back(Processor{fmt::format("P{}", u + 1), speed[static_cast<std::size_t>(k)]});
  }
  // Shuffle so that the members of a class spread over the indices (and over the words of the processor sets).
  for (int u = p - 1; u > 0; --u) {
    auto v = static_cast<std::size_t>(rng.integer(0, u));
    std::swap(out.class_of[static_cast<std::size_t>(u)], out.class_of[v]);
    std::swap(processors[static_cast<std::size_t>(u)].speed, processors[v].speed);
  }
  problem.platform = Platform(processors, "in", "out", 10.0, 0.0);
  if (uniform_links) return out;
  // One link per ordered pair of classes; P_in and P_out are classes of their own (indices K and K + 1).
  auto count = static_cast<std::size_t>(classes + 2);
  std::vector<double> b(count * count);
  std::vector<double> c(count * count);
  for (std::size_t k = 0; k < count * count; ++k) {
    b[k] = rng.uniform(1, 10);
    c[k] = rng.uniform(0, 0.1);
  }
  const Platform& platform = problem.platform;
  auto class_index         = [&](int node) {
    if (node == platform.in()) return static_cast<std::size_t>(classes);
    if (node == platform.out()) return static_cast<std::size_t>(classes + 1);
    return static_cast<std::size_t>(out.class_of[static_cast<std::size_t>(node)]);
  };
  for (int u = 0; u < platform.nodes(); ++u)
    for (int v = 0; v < platform.nodes(); ++v)
      if (u != v) {
        std::size_t at = class_index(u) * count + class_index(v);
        problem.platform.set_link(u, v, b[at], c[at]);
      }
  return out;
}

namespace {
/// The dynamic program of class_count_optimum: counts per class in mixed radix, memoised densely.
class ClassCountDp {
public:
  explicit ClassCountDp(const ClassedProblem& instance) : problem_(instance.problem)
  {
    const Platform& platform = problem_.platform;
    n_                       = problem_.pipeline.n();
    for (int u = 0; u < platform.p(); ++u) {
      auto k = static_cast<std::size_t>(instance.class_of[static_cast<std::size_t>(u)]);
      if (k >= members_.size()) members_.resize(k + 1);
      members_[k].push_back(u);
    }
    classes_                 = static_cast<int>(members_.size());
    std::size_t combinations = 1;
    for (const auto& m : members_) {
      radix_.push_back(combinations);
      limit_.push_back(std::min(n_, static_cast<int>(m.size())));
      combinations *= static_cast<std::size_t>(limit_.back() + 1);
    }
    for (const auto& m : members_)
      for (int u : m)
        if (not twins(m.front(), u))
          throw std::logic_error(fmt::format("processors {} and {} share a class but are not twins", m.front(), u));
    combinations_ = combinations;
    uniform_      = all_links_equal(platform);
  }

  double optimum()
  {
    double best = std::numeric_limits<double>::infinity();
    for (int h = 0; h < classes_; ++h)
      best = std::min(best, value(0, radix_[static_cast<std::size_t>(h)], classes_, h));
    return best;
  }

private:
  bool twins(int a, int b) const
  {
    const Platform& platform = problem_.platform;
    if (platform.speed(a) != platform.speed(b)) return false;
    for (int z = 0; z < platform.nodes(); ++z) {
      if (z == a || z == b) continue;
      if (platform.bandwidth(a, z) != platform.bandwidth(b, z) || platform.latency(a, z) != platform.latency(b, z) ||
          platform.bandwidth(z, a) != platform.bandwidth(z, b) || platform.latency(z, a) != platform.latency(z, b))
        return false;
    }
    return a == b ||
           (platform.bandwidth(a, b) == platform.bandwidth(b, a) && platform.latency(a, b) == platform.latency(b, a));
  }
  int used(std::size_t counts, int k) const
  {
    return static_cast<int>(counts / radix_[static_cast<std::size_t>(k)] %
                            static_cast<std::size_t>(limit_[static_cast<std::size_t>(k)] + 1));
  }
  /// Representative processors: the interval on class h, its neighbour on class g (another member if g == h).
  int member(int h) const { return members_[static_cast<std::size_t>(h)].front(); }
  int neighbour(int g, int h, int end) const
  {
    if (g == classes_) return end;
    return g == h ? members_[static_cast<std::size_t>(g)][1] : member(g);
  }
  /// Least max cycle-time of the intervals from stage i + 1 on, the first of them on class h after class g (or
  /// P_in when g = K); `counts` includes h.
  double value(int i, std::size_t counts, int g, int h)
  {
    // With equal links the class of the previous interval changes no transfer: it is left out of the key.
    auto key = ((static_cast<std::size_t>(i) * combinations_ + counts) * static_cast<std::size_t>(classes_ + 1) +
                static_cast<std::size_t>(uniform_ ? 0 : g)) *
                   static_cast<std::size_t>(classes_) +
               static_cast<std::size_t>(h);
    if (auto known = memo_.find(key); known != memo_.end()) return known->second;
    const Platform& platform = problem_.platform;
    int u                    = member(h);
    int prev                 = neighbour(g, h, platform.in());
    double best              = std::numeric_limits<double>::infinity();
    for (int e = i; e < n_; ++e) {
      if (e == n_ - 1) {
        best =
            std::min(best, br07_interval_cycle_time(problem_.pipeline, platform, i + 1, n_, u, prev, platform.out()));
        break;
      }
      for (int k = 0; k < classes_; ++k) {
        if (used(counts, k) >= limit_[static_cast<std::size_t>(k)]) continue;
        double cycle = br07_interval_cycle_time(problem_.pipeline, platform, i + 1, e + 1, u, prev,
                                                neighbour(k, h, platform.out()));
        if (cycle >= best) continue;
        best = std::min(best, std::max(cycle, value(e + 1, counts + radix_[static_cast<std::size_t>(k)], h, k)));
      }
    }
    memo_.emplace(key, best);
    return best;
  }
  static bool all_links_equal(const Platform& platform)
  {
    for (int a = 0; a < platform.nodes(); ++a)
      for (int b = 0; b < platform.nodes(); ++b)
        if (a != b && (platform.latency(a, b) != platform.latency(0, platform.out()) ||
                       platform.bandwidth(a, b) != platform.bandwidth(0, platform.out())))
          return false;
    return true;
  }

  const Problem& problem_;
  int n_       = 0;
  int classes_ = 0;
  std::vector<std::vector<int>> members_;
  std::vector<std::size_t> radix_;
  std::vector<int> limit_; // most processors of a class a mapping can use: min(n, size)
  std::size_t combinations_ = 0;
  bool uniform_             = false; // every link equal
  std::unordered_map<std::size_t, double> memo_;
};
} // namespace

double class_count_optimum(const ClassedProblem& instance) { return ClassCountDp(instance).optimum(); }

} // namespace pipesim::fixtures
