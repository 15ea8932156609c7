// br07 §6.1: the integer linear program of the optimal interval mapping, built and solved with CBC.
#include "mappers/br07/ilp.hpp"
#include "mappers/cbc_status.hpp"

#include "model/analytic.hpp"

#include <Cbc_C_Interface.h>
#include <fmt/format.h>
#include <limits>
#include <memory>

namespace pipesim {

namespace {
const MapperRegistration br07_ilp_registration{[] { return std::make_unique<Br07Ilp>(); }};

constexpr double max_variables = 2e6;

double variable_count(int n, int p)
{
  double nodes = p + 2.0;
  return (n + 2.0) * nodes + (n + 1.0) * nodes * (nodes - 1) + (n + 1.0) * nodes + 2.0 * p + 1;
}

/// Builds the program of br07 §6.1 into a CBC model; node indices are the Platform's (P_in = p, P_out = p + 1).
class IlpProgram {
public:
  IlpProgram(const Problem& problem, Cbc_Model* model)
      : problem_(problem), model_(model), n_(problem.pipeline.n()), p_(problem.platform.p()), nodes_(p_ + 2),
        in_(problem.platform.in()), out_(problem.platform.out())
  {
    add_columns();
    add_assignment_rows();
    add_interval_rows();
    add_period_rows();
  }
  int x(int k, int u) const { return x_[static_cast<std::size_t>(k * nodes_ + u)]; }
  int z(int k, int u, int v) const { return z_[static_cast<std::size_t>((k * nodes_ + u) * nodes_ + v)]; }
  int y(int k, int u) const { return y_[static_cast<std::size_t>(k * nodes_ + u)]; }
  int period() const { return period_; }
  int rows() const { return rows_; }

private:
  int column(const std::string& name, double lb, double ub, bool integer, double objective = 0)
  {
    Cbc_addCol(model_, name.c_str(), lb, ub, objective, integer ? 1 : 0, 0, nullptr, nullptr);
    return columns_++;
  }
  void row(const std::vector<std::pair<int, double>>& terms, char sense, double rhs)
  {
    std::vector<int> cols;
    std::vector<double> coefs;
    for (auto [c, a] : terms) {
      cols.push_back(c);
      coefs.push_back(a);
    }
    Cbc_addRow(model_, fmt::format("r{}", rows_++).c_str(), static_cast<int>(cols.size()), cols.data(), coefs.data(),
               sense, rhs);
  }
  bool io(int u) const { return u == in_ || u == out_; }

  void add_columns()
  {
    for (int k = 0; k <= n_ + 1; ++k)
      for (int u = 0; u < nodes_; ++u) { // x_{0,in} = x_{n+1,out} = 1; x_{k,in} = x_{k,out} = 0 for 1 <= k <= n
        double fixed = (k == 0 && u == in_) || (k == n_ + 1 && u == out_) ? 1 : 0;
        bool free    = not io(u) || k == 0 || k == n_ + 1;
        x_.push_back(column(fmt::format("x_{}_{}", k, u), fixed, free ? 1 : fixed, true));
      }
    z_.assign(static_cast<std::size_t>((n_ + 1) * nodes_ * nodes_), -1);
    for (int k = 0; k <= n_; ++k)
      for (int u = 0; u < nodes_; ++u)
        for (int v = 0; v < nodes_; ++v) {
          if (u == v) continue; // z_{k,in,v} = 0 for k != 0, z_{k,u,out} = 0 for k != n
          bool zero = (u == in_ && k != 0) || (v == out_ && k != n_);
          z_[static_cast<std::size_t>((k * nodes_ + u) * nodes_ + v)] =
              column(fmt::format("z_{}_{}_{}", k, u, v), 0, zero ? 0 : 1, true);
        }
    for (int k = 0; k <= n_; ++k)
      for (int u = 0; u < nodes_; ++u) { // y_{k,in} = y_{k,out} = 0, y_{0,u} = y_{n,u} = 0
        bool zero = io(u) || k == 0 || k == n_;
        y_.push_back(column(fmt::format("y_{}_{}", k, u), 0, zero ? 0 : 1, true));
      }
    for (int u = 0; u < p_; ++u) {
      first_.push_back(column(fmt::format("first_{}", u), 1, n_, true));
      last_.push_back(column(fmt::format("last_{}", u), 1, n_, true));
    }
    period_ = column("T_period", 0, std::numeric_limits<double>::infinity(), false, 1);
  }

  void add_assignment_rows()
  {
    for (int k = 0; k <= n_ + 1; ++k) { // (a)
      std::vector<std::pair<int, double>> terms;
      for (int u = 0; u < nodes_; ++u)
        terms.emplace_back(x(k, u), 1);
      row(terms, 'E', 1);
    }
    for (int k = 0; k <= n_; ++k) { // (b)
      std::vector<std::pair<int, double>> terms;
      for (int u = 0; u < nodes_; ++u) {
        terms.emplace_back(y(k, u), 1);
        for (int v = 0; v < nodes_; ++v)
          if (u != v) terms.emplace_back(z(k, u, v), 1);
      }
      row(terms, 'E', 1);
    }
    for (int k = 0; k <= n_; ++k)
      for (int u = 0; u < nodes_; ++u)
        for (int v = 0; v < nodes_; ++v)
          if (u != v) // (c)
            row({{x(k, u), 1}, {x(k + 1, v), 1}, {z(k, u, v), -1}}, 'L', 1);
          else // (d)
            row({{x(k, u), 1}, {x(k + 1, u), 1}, {y(k, u), -1}}, 'L', 1);
  }

  void add_interval_rows()
  {
    for (int k = 1; k <= n_; ++k)
      for (int u = 0; u < p_; ++u) { // (e)
        row({{first_[static_cast<std::size_t>(u)], 1}, {x(k, u), n_ - k}}, 'L', n_);
        row({{last_[static_cast<std::size_t>(u)], 1}, {x(k, u), -k}}, 'G', 0);
      }
    for (int k = 1; k <= n_ - 1; ++k)
      for (int u = 0; u < p_; ++u)
        for (int v = 0; v < p_; ++v)
          if (u != v) { // (f)
            row({{last_[static_cast<std::size_t>(u)], 1}, {z(k, u, v), n_ - k}}, 'L', n_);
            row({{first_[static_cast<std::size_t>(v)], 1}, {z(k, u, v), -(k + 1)}}, 'G', 0);
          }
  }

  void add_period_rows()
  {
    const Pipeline& pipeline = problem_.pipeline;
    const Platform& platform = problem_.platform;
    for (int u = 0; u < p_; ++u) { // (g), transfer times with the latencies c (extension)
      std::vector<std::pair<int, double>> terms;
      for (int k = 1; k <= n_; ++k) {
        for (int t = 0; t < nodes_; ++t)
          if (t != u) terms.emplace_back(z(k - 1, t, u), platform.transfer_time(t, u, pipeline.data(k - 1)));
        terms.emplace_back(x(k, u), pipeline.work(k) / platform.speed(u));
        for (int v = 0; v < nodes_; ++v)
          if (v != u) terms.emplace_back(z(k, u, v), platform.transfer_time(u, v, pipeline.data(k)));
      }
      terms.emplace_back(period_, -1);
      row(terms, 'L', 0);
    }
  }

  const Problem& problem_;
  Cbc_Model* model_;
  int n_, p_, nodes_, in_, out_;
  int columns_ = 0;
  int rows_    = 0;
  std::vector<int> x_, z_, y_, first_, last_;
  int period_ = -1;
};

/// Reads the mapping from x (stage k on the processor with x_{k,u} > 1/2); empty if x is not an interval mapping.
Mapping read_mapping(const Problem& problem, const IlpProgram& program, const double* solution)
{
  std::vector<std::pair<int, int>> intervals;
  std::vector<int> alloc;
  for (int k = 1; k <= problem.pipeline.n(); ++k) {
    int on = -1;
    for (int u = 0; u < problem.platform.p(); ++u)
      if (solution[program.x(k, u)] > 0.5) on = u;
    if (on < 0) return {};
    if (not alloc.empty() && alloc.back() == on)
      intervals.back().second = k;
    else {
      intervals.emplace_back(k, k);
      alloc.push_back(on);
    }
  }
  Mapping mapping = make_interval_mapping(intervals, alloc);
  if (classify(mapping) == MappingRule::general) return {};
  return mapping;
}
} // namespace

MapperInfo Br07Ilp::info() const
{
  MapperInfo info;
  info.name = "br07.ilp";
  info.description =
      "br07 §6.1: optimal interval mapping by the paper's integer linear program, solved with COIN-OR CBC";
  info.paper       = Paper::br07;
  info.family      = MapperFamily::integer_program;
  info.objective   = MapperObjective::period;
  info.models      = {CommModel::one_port};
  info.mapping     = MappingRule::interval;
  info.exact       = true;
  info.complexity  = "exponential (branch and cut), O(n p^2) variables and constraints";
  info.restriction = "the program's constraint (g) is the one-port period of br07 eq. (2)";
  return info;
}

std::optional<std::string> Br07Ilp::instance_refusal(const Problem& problem) const
{
  double count = variable_count(problem.pipeline.n(), problem.platform.p());
  if (count > max_variables)
    return fmt::format("{:.0f} variables (n = {}, p = {}), more than the limit of {:.0f}", count, problem.pipeline.n(),
                       problem.platform.p(), max_variables);
  return std::nullopt;
}

MapperResult Br07Ilp::map(const Problem& problem, const MapperOptions& options) const
{
  std::unique_ptr<Cbc_Model, void (*)(Cbc_Model*)> model(Cbc_newModel(), Cbc_deleteModel);
  IlpProgram program(problem, model.get());
  CbcSolve solve = cbc_solve(model.get(), options.time_limit);

  MapperResult result;
  result.objective                 = std::numeric_limits<double>::infinity();
  result.statistics["variables"]   = Cbc_getNumCols(model.get());
  result.statistics["constraints"] = program.rows();
  result.statistics["cbc_nodes"]   = Cbc_getNodeCount(model.get());
  result.statistics["cbc_bound"]   = Cbc_getBestPossibleObjValue(model.get());
  const double* solution           = Cbc_bestSolution(model.get());
  if (solution != nullptr) {
    result.mapping                  = read_mapping(problem, program, solution);
    result.statistics["cbc_period"] = solution[program.period()];
  }
  bool found = not result.mapping.intervals.empty();
  if (found) result.objective = br07_eq2_period(problem.pipeline, problem.platform, result.mapping);
  result.status = cbc_solve_status(model.get(), solve, found);
  return result;
}

} // namespace pipesim
