// bbr10 §5: the MILP of the minimum period over elections, built per interval and solved with CBC.
#include "mappers/bbr10/election_milp.hpp"
#include "mappers/cbc_status.hpp"

#include "base/input_error.hpp"

#include <Cbc_C_Interface.h>
#include <algorithm>
#include <fmt/format.h>
#include <limits>
#include <map>
#include <memory>

namespace pipesim {

namespace {

using Row = std::vector<std::pair<int, double>>; // (column, coefficient)

class Program {
public:
  Program(const Pipeline& pipeline, const Platform& platform, const Mapping& mapping,
          const FailureConfiguration& config, Cbc_Model* model)
      : platform_(platform), instance_(pipeline, platform, mapping, config), model_(model)
  {
    for (int j = 0; j < instance_.m(); ++j) {
      std::vector<int> cols;
      for (int u : instance_.alive[static_cast<std::size_t>(j)])
        cols.push_back(column(fmt::format("x_{}_{}", j, u), 0, 1, true, 0));
      x_.push_back(std::move(cols));
    }
    period_ = column("P", lower_bound(pipeline, mapping, config), std::numeric_limits<double>::infinity(), false, 1);
    for (int j = 0; j < instance_.m(); ++j) { // (elect)
      Row r;
      for (int c : x_[static_cast<std::size_t>(j)])
        r.emplace_back(c, 1);
      add_row(r, 'E', 1);
    }
    add_link_and_bout_rows();
    add_bin_rows();
  }
  const ElectionInstance& instance() const { return instance_; }
  int x(int j, std::size_t i) const { return x_[static_cast<std::size_t>(j)][i]; }
  int period() const { return period_; }
  int rows() const { return rows_; }

private:
  int column(const std::string& name, double lb, double ub, bool integer, double objective)
  {
    Cbc_addCol(model_, name.c_str(), lb, ub, objective, integer ? 1 : 0, 0, nullptr, nullptr);
    return columns_++;
  }
  void add_row(const Row& terms, char sense, double rhs)
  {
    std::map<int, double> merged; // CBC rows must not name a column twice: a latency joins its x's bytes term
    for (auto [c, a] : terms)
      merged[c] += a;
    std::vector<int> cols;
    std::vector<double> coefs;
    for (auto [c, a] : merged) {
      cols.push_back(c);
      coefs.push_back(a);
    }
    Cbc_addRow(model_, fmt::format("r{}", rows_++).c_str(), static_cast<int>(cols.size()), cols.data(), coefs.data(),
               sense, rhs);
  }
  /// x_{j,u}'s column (u must be alive in I_j).
  int x_of(int j, int u) const
  {
    const auto& alive = instance_.alive[static_cast<std::size_t>(j)];
    auto i            = static_cast<std::size_t>(std::find(alive.begin(), alive.end(), u) - alive.begin());
    return x_[static_cast<std::size_t>(j)][i];
  }
  /// `base` (sum of terms) plus `extra` on x_{j,u}, minus P, <= rhs: one row per j with a latency, one if none.
  void add_max_rows(const Row& base, const std::vector<std::pair<int, double>>& latency_by_column, double rhs)
  {
    bool any = false;
    for (auto [col, c] : latency_by_column)
      if (c > 0) {
        any     = true;
        Row row = base;
        row.emplace_back(col, c);
        row.emplace_back(period_, -1);
        add_row(row, 'L', rhs);
      }
    if (!any) {
      Row row = base;
      row.emplace_back(period_, -1);
      add_row(row, 'L', rhs);
    }
  }

  /// The terms no election changes: compute, P_in's transfers, the bytes over Bin (bbr10 §5 compute rows).
  double lower_bound(const Pipeline& pipeline, const Mapping& mapping, const FailureConfiguration& config)
  {
    double lb = 0;
    received_.assign(static_cast<std::size_t>(platform_.p()), 0.0);
    for (int j = 0; j < instance_.m(); ++j)
      for (int v : instance_.receivers[static_cast<std::size_t>(j)])
        if (v < platform_.p()) received_[static_cast<std::size_t>(v)] += instance_.delta[static_cast<std::size_t>(j)];
    for (int u : instance_.alive.front())
      received_[static_cast<std::size_t>(u)] += pipeline.data(0);
    for (int u : mapping.processors()) {
      if (!config.is_alive(u)) continue;
      double work = 0;
      for (int j : mapping.intervals_of(u))
        work += pipeline.work(mapping.interval(j).first, mapping.interval(j).last);
      lb = std::max(
          {lb, work / platform_.speed(u), received_[static_cast<std::size_t>(u)] / platform_.processor(u).nic_in});
    }
    for (int u : instance_.alive.front()) // P_in sends delta_0 to every alive replica of I_1
      lb = std::max({lb, platform_.transfer_time(platform_.in(), u, pipeline.data(0)),
                     platform_.latency(platform_.in(), u) +
                         received_[static_cast<std::size_t>(u)] / platform_.processor(u).nic_in});
    return lb;
  }

  void add_link_and_bout_rows()
  {
    std::map<std::pair<int, int>, std::vector<int>> pairs; // (u, v) -> intervals j with u alive in I_j, v in R_j
    std::map<int, std::vector<int>> senders;               // u -> intervals j with u alive in I_j, R_j not empty
    for (int j = 0; j < instance_.m(); ++j) {
      const auto& to = instance_.receivers[static_cast<std::size_t>(j)];
      if (to.empty()) continue;
      for (int u : instance_.alive[static_cast<std::size_t>(j)]) {
        senders[u].push_back(j);
        for (int v : to)
          pairs[{u, v}].push_back(j);
      }
    }
    for (const auto& [pair, js] : pairs) { // (link): c_{u,v} [u sends on u->v] + bytes / b_{u,v} <= P
      auto [u, v] = pair;
      Row base;
      std::vector<std::pair<int, double>> latency;
      for (int j : js) {
        base.emplace_back(x_of(j, u), instance_.delta[static_cast<std::size_t>(j)] / platform_.bandwidth(u, v));
        latency.emplace_back(x_of(j, u), platform_.latency(u, v));
      }
      add_max_rows(base, latency, 0);
    }
    for (const auto& [u, js] : senders) { // (Bout): max c of u's transfers + bytes / Bout_u <= P
      Row base;
      std::vector<std::pair<int, double>> latency;
      for (int j : js) {
        const auto& to = instance_.receivers[static_cast<std::size_t>(j)];
        double bytes   = static_cast<double>(to.size()) * instance_.delta[static_cast<std::size_t>(j)];
        double c       = 0;
        for (int v : to)
          c = std::max(c, platform_.latency(u, v));
        base.emplace_back(x_of(j, u), bytes / platform_.processor(u).nic_out);
        latency.emplace_back(x_of(j, u), c);
      }
      add_max_rows(base, latency, 0);
    }
  }

  void add_bin_rows()
  {
    for (int j = 0; j < instance_.m(); ++j) // (Bin): c_{v,u} x_{j,v} + bytes / Bin_u <= P, when c_{v,u} > 0
      for (int u : instance_.receivers[static_cast<std::size_t>(j)]) {
        if (u >= platform_.p()) continue; // P_out has no card
        double constant = received_[static_cast<std::size_t>(u)] / platform_.processor(u).nic_in;
        for (int v : instance_.alive[static_cast<std::size_t>(j)])
          if (platform_.latency(v, u) > 0)
            add_row({{x_of(j, v), platform_.latency(v, u)}, {period_, -1}}, 'L', -constant);
      }
  }

  const Platform& platform_;
  ElectionInstance instance_;
  Cbc_Model* model_;
  std::vector<std::vector<int>> x_;
  std::vector<double> received_;
  int period_  = -1;
  int columns_ = 0;
  int rows_    = 0;
};

} // namespace

MilpElection bbr10_milp_election(const Pipeline& pipeline, const Platform& platform, const Mapping& mapping,
                                 const FailureConfiguration& config, double time_limit)
{
  std::unique_ptr<Cbc_Model, void (*)(Cbc_Model*)> model(Cbc_newModel(), Cbc_deleteModel);
  Program program(pipeline, platform, mapping, config, model.get());
  CbcSolve solve = cbc_solve(model.get(), time_limit);

  MilpElection result;
  result.variables       = Cbc_getNumCols(model.get());
  result.constraints     = program.rows();
  result.nodes           = Cbc_getNodeCount(model.get());
  result.cbc_bound       = Cbc_getBestPossibleObjValue(model.get());
  const double* solution = Cbc_bestSolution(model.get());
  bool found             = false;
  if (solution != nullptr) {
    result.cbc_period = solution[program.period()];
    Election election;
    const auto& instance = program.instance();
    for (int j = 0; j < instance.m(); ++j) {
      int sender        = -1;
      const auto& alive = instance.alive[static_cast<std::size_t>(j)];
      for (std::size_t i = 0; i < alive.size(); ++i)
        if (solution[program.x(j, i)] > 0.5) sender = alive[i];
      election.sender.push_back(sender);
    }
    found = std::find(election.sender.begin(), election.sender.end(), -1) == election.sender.end();
    if (found) {
      double period = bbr10_period(pipeline, platform, mapping, config, election);
      result.choice = ElectionChoice{std::move(election), period, std::nullopt}; // the MILP is no policy
    }
  }
  result.status = cbc_solve_status(model.get(), solve, found);
  return result;
}

ElectionFunction bbr10_milp_election_function(double time_limit)
{
  return [time_limit](const Pipeline& pl, const Platform& pf, const Mapping& mp, const FailureConfiguration& c) {
    MilpElection milp = bbr10_milp_election(pl, pf, mp, c, time_limit);
    if (milp.status != SolveStatus::optimal)
      throw InputError::keyed("simulation.failures.election", "milp",
                              fmt::format("seed 004 §5 MILP: CBC did not prove an optimal election within {} s ({})",
                                          time_limit, to_string(milp.status)));
    return milp.choice.election;
  };
}

} // namespace pipesim
