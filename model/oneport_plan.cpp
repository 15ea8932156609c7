// Per-processor programs of the one-port execution, over a round of L data sets.
#include "model/oneport_plan.hpp"

#include "base/input_error.hpp"
#include "model/deal.hpp"

#include <fmt/format.h>

namespace pipesim {

namespace {

void check_senders(const Mapping& mapping, const std::vector<int>& senders)
{
  if (senders.empty()) return;
  if (senders.size() != static_cast<std::size_t>(mapping.m()))
    throw InputError::keyed("simulation.failures.election", senders.size(),
                            fmt::format("one-port plan: senders elected for {} intervals", mapping.m()));
  for (int j = 0; j < mapping.m(); ++j)
    if (!mapping.interval(j).holds(senders[static_cast<std::size_t>(j)]))
      throw InputError::keyed(interval_key(j, "replicas"), senders[static_cast<std::size_t>(j)],
                              "one-port plan: the elected sender (a processor index) is not one of its replicas");
}

/// Who does what with data set k (DESIGN.md §3.7).
struct Roles {
  const Mapping& mapping;
  const std::vector<int>& senders;

  int proc(int j, int r) const { return mapping.interval(j).replicas[static_cast<std::size_t>(r)].front(); }
  /// The processor sending data set k of I_j's output.
  int sender(int j, int k) const
  {
    int elected = senders.empty() ? -1 : senders[static_cast<std::size_t>(j)];
    return proc(j, sending_replica(mapping.interval(j), k, elected));
  }
  /// u computed data set k of I_j.
  bool computed(int j, int u, int k) const
  {
    int r = replica_of(mapping.interval(j), u);
    return r >= 0 && processes(mapping.interval(j), r, k);
  }
};

/// receive[j][k][r]: the transfer feeding replica r of I_j with data set k; -1 when it does not process k or computes
/// its input itself.
using ReceiveTable = std::vector<std::vector<std::vector<int>>>;

ReceiveTable add_transfers(OnePortPlan& plan, const Pipeline& pipeline, const Roles& roles, int in_node, int out_node)
{
  const Mapping& mapping = roles.mapping;
  const int l            = plan.datasets;
  auto add               = [&](OnePortPlan::Transfer t) {
    plan.transfers.push_back(t);
    return static_cast<int>(plan.transfers.size()) - 1;
  };
  ReceiveTable receive(static_cast<std::size_t>(mapping.m()));
  plan.from_in.resize(static_cast<std::size_t>(l));
  for (int j = 0; j < mapping.m(); ++j) {
    const Interval& in = mapping.interval(j);
    auto& rj           = receive[static_cast<std::size_t>(j)];
    rj.assign(static_cast<std::size_t>(l), std::vector<int>(in.replicas.size(), -1));
    for (int k = 0; k < l; ++k)
      for (int r : processing_replicas(in, k)) {
        int u = roles.proc(j, r);
        if (j > 0 && roles.computed(j - 1, u, k)) continue;
        int t = add({j == 0 ? in_node : roles.sender(j - 1, k), u, pipeline.data(in.first - 1), in.first, j, k});
        rj[static_cast<std::size_t>(k)][static_cast<std::size_t>(r)] = t;
        if (j == 0) plan.from_in[static_cast<std::size_t>(k)].push_back(t);
      }
  }
  const int m = mapping.m();
  for (int k = 0; k < l; ++k)
    plan.to_out.push_back(add({roles.sender(m - 1, k), out_node, pipeline.data(pipeline.n()), pipeline.n() + 1, m, k}));
  return receive;
}

OnePortPlan::Program program_of(int u, const OnePortPlan& plan, const ReceiveTable& receive, const Pipeline& pipeline,
                                const Roles& roles)
{
  using Kind             = OnePortPlan::Step::Kind;
  const Mapping& mapping = roles.mapping;
  OnePortPlan::Program program{u, {}};
  auto held = mapping.intervals_of(u);
  for (int k = 0; k < plan.datasets; ++k)
    for (int j : held) {
      const Interval& in = mapping.interval(j);
      int r              = replica_of(in, u);
      if (!processes(in, r, k)) continue;
      const auto& rjk = receive[static_cast<std::size_t>(j)][static_cast<std::size_t>(k)];
      if (int t = rjk[static_cast<std::size_t>(r)]; t >= 0) program.steps.push_back({Kind::receive, j, t, 0, k});
      program.steps.push_back({Kind::compute, j, -1, pipeline.work(in.first, in.last), k});
      if (u != roles.sender(j, k)) continue;
      if (j + 1 == mapping.m()) {
        program.steps.push_back({Kind::send, j, plan.to_out[static_cast<std::size_t>(k)], 0, k});
        continue;
      }
      for (int t : receive[static_cast<std::size_t>(j + 1)][static_cast<std::size_t>(k)])
        if (t >= 0) program.steps.push_back({Kind::send, j, t, 0, k});
    }
  return program;
}

} // namespace

OnePortPlan plan_oneport(const Pipeline& pipeline, const Mapping& mapping, int in_node, int out_node,
                         const std::vector<int>& senders)
{
  if (mapping.data_parallel())
    throw InputError::keyed(first_group_key(mapping), "one-port model: data-parallel processor groups are not "
                                                      "supported yet");
  check_senders(mapping, senders);
  OnePortPlan plan;
  plan.datasets = deal_round(mapping);
  Roles roles{mapping, senders};
  ReceiveTable receive = add_transfers(plan, pipeline, roles, in_node, out_node);
  for (int u : mapping.processors())
    plan.programs.push_back(program_of(u, plan, receive, pipeline, roles));
  return plan;
}

} // namespace pipesim
