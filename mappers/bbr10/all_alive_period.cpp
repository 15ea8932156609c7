#include "mappers/bbr10/all_alive_period.hpp"

#include "base/input_error.hpp"
#include "model/bbr10/best.hpp"
#include "model/bbr10/max_bout.hpp"
#include "model/bbr10/min_comm.hpp"
#include "model/bbr10/min_nb_procs.hpp"
#include "model/bbr10/random_election.hpp"

#include <algorithm>
#include <limits>

namespace pipesim {

AllAliveEvaluator::AllAliveEvaluator(const Pipeline& pipeline, const Platform& platform, std::uint64_t seed)
    : pipeline_(pipeline), platform_(platform), seed_(seed)
{
  auto p = static_cast<std::size_t>(platform.p());
  for (auto* v : {&fixed_, &in_bytes_, &in_latency_fixed_, &work_, &out_bytes_, &out_latency_, &in_latency_})
    v->assign(p, 0.0);
  stamp_.assign(p, -1);
  link_bytes_.assign(p * static_cast<std::size_t>(platform.nodes()), -1.0); // -1: no transfer on the pair
}

void AllAliveEvaluator::clear()
{
  spans_.clear();
  procs_.clear();
  finished_ = false;
}

void AllAliveEvaluator::add_interval(int first, int last, const std::vector<int>& processors)
{
  spans_.push_back(Span{first, last, procs_.size(), procs_.size() + processors.size()});
  procs_.insert(procs_.end(), processors.begin(), processors.end());
  finished_ = false;
}

void AllAliveEvaluator::finish()
{
  if (finished_) return;
  finished_ = true;
  std::fill(fixed_.begin(), fixed_.end(), -1.0); // -1: not seen yet
  std::fill(in_bytes_.begin(), in_bytes_.end(), 0.0);
  std::fill(work_.begin(), work_.end(), 0.0);
  used_.clear();
  stamp_base_ += static_cast<long long>(spans_.size()) + 1; // stamp_[u] = stamp_base_ + the last span holding u
  std::size_t mapped = 0;
  const int m        = static_cast<int>(spans_.size());
  for (int j = 0; j < m; ++j) {
    const Span& s = spans_[static_cast<std::size_t>(j)];
    // the receivers of I_{j-1} (when it has replicas): I_j's replicas that do not hold it (bbr10 §5)
    std::vector<int>* to_previous =
        j > 0 && spans_[static_cast<std::size_t>(j) - 1].begin != spans_[static_cast<std::size_t>(j) - 1].end
            ? &instance_.receivers[mapped - 1]
            : nullptr;
    for (std::size_t r = s.begin; r < s.end; ++r)
      add_replica(j, procs_[r], to_previous);
    if (s.begin == s.end) continue; // not mapped yet: no election
    if (instance_.alive.size() <= mapped) {
      instance_.alive.resize(mapped + 1);
      instance_.receivers.resize(mapped + 1);
      instance_.delta.resize(mapped + 1);
      interval_of_.resize(mapped + 1);
    }
    instance_.alive[mapped].assign(procs_.begin() + static_cast<std::ptrdiff_t>(s.begin),
                                   procs_.begin() + static_cast<std::ptrdiff_t>(s.end));
    instance_.receivers[mapped].clear();
    if (j + 1 == m) instance_.receivers[mapped].push_back(platform_.out());
    instance_.delta[mapped] = pipeline_.data(s.last);
    interval_of_[mapped]    = j;
    ++mapped;
  }
  for (auto* v : {&instance_.alive, &instance_.receivers})
    v->resize(mapped);
  instance_.delta.resize(mapped);
  interval_of_.resize(mapped);
  for (int u : used_)
    fixed_[static_cast<std::size_t>(u)] =
        std::max(fixed_[static_cast<std::size_t>(u)], work_[static_cast<std::size_t>(u)] / platform_.speed(u));
}

void AllAliveEvaluator::add_replica(int j, int u, std::vector<int>* to_previous)
{
  const Span& s = spans_[static_cast<std::size_t>(j)];
  auto uu       = static_cast<std::size_t>(u);
  if (fixed_[uu] < 0) {
    used_.push_back(u);
    fixed_[uu] = in_latency_fixed_[uu] = 0;
  }
  work_[uu] += pipeline_.work(s.first, s.last); // Algorithm 1 load_u: every stage u holds
  double bytes = pipeline_.data(s.first - 1);
  if (j == 0) { // P_in sends delta_0 to every replica of I_1
    in_bytes_[uu] += bytes;
    fixed_[uu]            = std::max(fixed_[uu], platform_.transfer_time(platform_.in(), u, bytes));
    in_latency_fixed_[uu] = platform_.latency(platform_.in(), u);
  } else if (stamp_[uu] != stamp_base_ + j - 1) { // u does not hold I_{j-1}: it receives its output
    in_bytes_[uu] += bytes;                       // on its card even while I_{j-1} has no replica (no link then)
    if (to_previous) to_previous->push_back(u);
  }
  stamp_[uu] = stamp_base_ + j;
}

double AllAliveEvaluator::evaluate(const Election& election, double limit, std::vector<double>* cycle)
{
  double period = 0;
  for (int u : used_) {
    auto uu          = static_cast<std::size_t>(u);
    out_bytes_[uu]   = 0;
    out_latency_[uu] = 0;
    in_latency_[uu]  = in_latency_fixed_[uu];
    period           = std::max(period, fixed_[uu]);
    if (cycle) (*cycle)[uu] = fixed_[uu];
  }
  if (period > limit) return period;
  const auto nodes = static_cast<std::size_t>(platform_.nodes());
  // Algorithm 1's transfers, in its order: the elected sender of I_j to each receiver, I_m's to P_out
  for (int i = 0; i < instance_.m(); ++i) {
    int s        = election.sender[static_cast<std::size_t>(i)];
    auto ss      = static_cast<std::size_t>(s);
    double delta = instance_.delta[static_cast<std::size_t>(i)];
    for (int v : instance_.receivers[static_cast<std::size_t>(i)]) {
      double& bytes = link_bytes_[ss * nodes + static_cast<std::size_t>(v)];
      if (bytes < 0) {
        bytes = 0;
        touched_.push_back(s * platform_.nodes() + v);
      }
      bytes += delta;
      double c = platform_.latency(s, v);
      out_bytes_[ss] += delta;
      out_latency_[ss] = std::max(out_latency_[ss], c);
      if (v < platform_.p())
        in_latency_[static_cast<std::size_t>(v)] = std::max(in_latency_[static_cast<std::size_t>(v)], c);
    }
  }
  for (int key : touched_) { // a link pays its latency once for all its transfers
    int s = key / platform_.nodes(), v = key % platform_.nodes();
    double& bytes = link_bytes_[static_cast<std::size_t>(key)];
    double t      = platform_.transfer_time(s, v, bytes);
    bytes         = -1;
    period        = std::max(period, t);
    if (!cycle) continue;
    (*cycle)[static_cast<std::size_t>(s)] = std::max((*cycle)[static_cast<std::size_t>(s)], t);
    if (v < platform_.p()) (*cycle)[static_cast<std::size_t>(v)] = std::max((*cycle)[static_cast<std::size_t>(v)], t);
  }
  touched_.clear();
  for (int u : used_) { // the cards: the largest latency of their transfers, then the bytes
    auto uu             = static_cast<std::size_t>(u);
    const Processor& pu = platform_.processor(u);
    double t            = 0;
    if (in_bytes_[uu] > 0) t = in_latency_[uu] + in_bytes_[uu] / pu.nic_in;
    if (out_bytes_[uu] > 0) t = std::max(t, out_latency_[uu] + out_bytes_[uu] / pu.nic_out);
    period = std::max(period, t);
    if (cycle) (*cycle)[uu] = std::max((*cycle)[uu], t);
  }
  return period;
}

bool AllAliveEvaluator::within(double limit)
{
  finish();
  // any of the four within the limit <=> their smallest period is; MinComm first, the one that usually wins
  if (evaluate(bbr10_min_comm_election_on(platform_, instance_), limit, nullptr) <= limit) return true;
  if (evaluate(bbr10_min_nb_procs_election_on(platform_, instance_), limit, nullptr) <= limit) return true;
  if (evaluate(bbr10_max_bout_election_on(platform_, instance_), limit, nullptr) <= limit) return true;
  return evaluate(bbr10_random_election_on(instance_, seed_), limit, nullptr) <= limit;
}

AllAlivePeriod AllAliveEvaluator::best()
{
  finish();
  constexpr double all  = std::numeric_limits<double>::infinity();
  ElectionChoice choice = bbr10_best_election_on(
      platform_, instance_, [&](const Election& e) { return evaluate(e, all, nullptr); }, seed_);
  AllAlivePeriod out;
  out.period = choice.period;
  out.method = choice.method.value_or(ElectionPolicy::random);
  out.cycle_time.assign(static_cast<std::size_t>(platform_.p()), 0.0);
  evaluate(choice.election, all, &out.cycle_time);
  out.election.sender.assign(spans_.size(), -1);
  for (std::size_t i = 0; i < interval_of_.size(); ++i)
    out.election.sender[static_cast<std::size_t>(interval_of_[i])] = choice.election.sender[i];
  return out;
}

AllAlivePeriod bbr10_all_alive_period(const Pipeline& pipeline, const Platform& platform, const Mapping& mapping,
                                      std::uint64_t seed)
{
  if (mapping.data_parallel() || mapping.has_deal())
    throw InputError::keyed(mapping.data_parallel() ? first_group_key(mapping) : first_deal_key(mapping),
                            "seed 004 all-alive period: every interval must be actively replicated on single "
                            "processors");
  AllAliveEvaluator evaluator(pipeline, platform, seed);
  std::vector<int> procs;
  for (const Interval& in : mapping.intervals) {
    procs.clear();
    for (const auto& group : in.replicas)
      procs.push_back(group.front());
    evaluator.add_interval(in.first, in.last, procs);
  }
  return evaluator.best();
}

} // namespace pipesim
