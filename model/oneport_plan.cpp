// Per-processor programs of the one-port execution.
#include "model/oneport_plan.hpp"

#include "base/input_error.hpp"

#include <fmt/format.h>

namespace pipesim {

OnePortPlan plan_oneport(const Pipeline& pipeline, const Mapping& mapping, int in_node, int out_node,
                         const std::vector<int>& senders)
{
  if (mapping.data_parallel()) throw InputError("one-port model: data-parallel processor groups are not supported yet");
  if (mapping.has_deal()) throw InputError("one-port model: deal replication is not supported yet");
  OnePortPlan plan;
  const int m = mapping.m();
  auto proc   = [&](int j, std::size_t r) { return mapping.interval(j).replicas[r].front(); };
  if (!senders.empty()) {
    if (senders.size() != static_cast<std::size_t>(m))
      throw InputError(fmt::format("one-port plan: {} senders for {} intervals", senders.size(), m));
    for (int j = 0; j < m; ++j)
      if (!mapping.interval(j).holds(senders[static_cast<std::size_t>(j)]))
        throw InputError(fmt::format("one-port plan: the sender of interval {} is not one of its replicas", j + 1));
  }
  auto elected = [&](int j) { return senders.empty() ? proc(j, 0) : senders[static_cast<std::size_t>(j)]; };
  // receive[j][r]: transfer feeding replica r of I_j, -1 when the replica computes its input locally
  std::vector<std::vector<int>> receive(static_cast<std::size_t>(m));
  for (int j = 0; j < m; ++j) {
    const Interval& in = mapping.interval(j);
    for (std::size_t r = 0; r < in.replicas.size(); ++r) {
      int u = proc(j, r);
      int t = -1;
      if (j == 0 || !mapping.interval(j - 1).holds(u)) {
        t = static_cast<int>(plan.transfers.size());
        plan.transfers.push_back({j == 0 ? in_node : elected(j - 1), u, pipeline.data(in.first - 1), in.first, j});
        if (j == 0) plan.from_in.push_back(t);
      }
      receive[static_cast<std::size_t>(j)].push_back(t);
    }
  }
  plan.to_out = static_cast<int>(plan.transfers.size());
  plan.transfers.push_back({elected(m - 1), out_node, pipeline.data(pipeline.n()), pipeline.n() + 1, m});

  using Kind = OnePortPlan::Step::Kind;
  for (int u : mapping.processors()) {
    OnePortPlan::Program program{u, {}};
    for (int j : mapping.intervals_of(u)) {
      const Interval& in = mapping.interval(j);
      std::size_t r      = 0;
      while (proc(j, r) != u)
        ++r;
      if (int t = receive[static_cast<std::size_t>(j)][r]; t >= 0) program.steps.push_back({Kind::receive, j, t, 0});
      program.steps.push_back({Kind::compute, j, -1, pipeline.work(in.first, in.last)});
      if (u != elected(j)) continue;
      if (j + 1 == m) {
        program.steps.push_back({Kind::send, j, plan.to_out, 0});
        continue;
      }
      for (int t : receive[static_cast<std::size_t>(j + 1)])
        if (t >= 0) program.steps.push_back({Kind::send, j, t, 0});
    }
    plan.programs.push_back(std::move(program));
  }
  return plan;
}

} // namespace pipesim
