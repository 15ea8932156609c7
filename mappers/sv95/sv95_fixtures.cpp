// Seeded tiny instances of sv95's mapping problem.
#include "mappers/sv95/sv95_fixtures.hpp"

#include "base/random.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace pipesim::fixtures {

Problem sv95_problem(TaskChain chain, int P)
{
  std::vector<Processor> processors;
  for (int u = 1; u <= P; ++u)
    processors.push_back(Processor{fmt::format("P{}", u)});
  Problem problem;
  problem.pipeline =
      Pipeline{std::vector<double>(chain.tasks.size(), 0.0), std::vector<double>(chain.tasks.size() + 1, 0.0)};
  problem.platform   = Platform(std::move(processors), "in", "out", 1.0);
  problem.task_chain = std::move(chain);
  return problem;
}

namespace {
double pick(Rng& rng, std::initializer_list<double> values)
{
  auto i = static_cast<std::size_t>(rng.integer(0, static_cast<long long>(values.size()) - 1));
  return values.begin()[i];
}

double whole(Rng& rng, long long lo, long long hi) { return static_cast<double>(rng.integer(lo, hi)); }

CostFunction random_exec(Rng& rng, int P)
{
  if (rng.uniform01() < 0.2) { // a table, sometimes ending before P
    int from = static_cast<int>(rng.integer(1, 2));
    int size = static_cast<int>(rng.integer(2, P + 1));
    std::vector<double> values;
    for (int i = 0; i < size; ++i)
      values.push_back(whole(rng, 1, 30));
    return CostFunction::values(values, from);
  }
  return CostFunction::polynomial(whole(rng, 0, 3), whole(rng, 0, 40), pick(rng, {0, 0.5, 1, 2}));
}

CommFunction random_ecom(Rng& rng, int P)
{
  if (rng.uniform01() < 0.15) {
    std::vector<std::vector<double>> rows(static_cast<std::size_t>(P));
    for (auto& row : rows)
      for (int pr = 1; pr <= P; ++pr)
        row.push_back(whole(rng, 0, 20));
    return CommFunction::values(rows);
  }
  return CommFunction::polynomial(whole(rng, 0, 2), whole(rng, 0, 20), whole(rng, 0, 20), pick(rng, {0, 0.5, 1}),
                                  pick(rng, {0, 0.5, 1}));
}

TaskChain mixed_chain(Rng& rng, int k, int P)
{
  TaskChain chain;
  for (int i = 1; i <= k; ++i) {
    Task t;
    t.exec       = random_exec(rng, P);
    t.p_min      = rng.uniform01() < 0.5 ? static_cast<int>(rng.integer(1, 3)) : 1;
    t.memory     = rng.uniform01() < 0.3 ? pick(rng, {0, 0.5, 1, 1.5, 2.5}) : 0;
    t.replicable = rng.uniform01() < 0.7;
    chain.tasks.push_back(t);
  }
  for (int i = 1; i < k; ++i) {
    chain.icom.push_back(CostFunction::polynomial(whole(rng, 0, 2), whole(rng, 0, 10), pick(rng, {0, 0.5})));
    chain.ecom.push_back(random_ecom(rng, P));
  }
  if (rng.uniform01() < 0.3) chain.input = CostFunction::polynomial(whole(rng, 0, 2), whole(rng, 0, 10));
  if (rng.uniform01() < 0.3) chain.output = CostFunction::polynomial(whole(rng, 0, 2), whole(rng, 0, 10));
  return chain;
}

/// A replicable sender with a costly C2 / ps term in its send, then (often) a receiver that is not replicable:
/// replicating the sender maximally shrinks ps and slows the receiver down; p_min of 2 or 3 leaves processors over.
TaskChain replication_chain(Rng& rng, int k)
{
  TaskChain chain;
  for (int i = 1; i <= k; ++i) {
    Task t;
    bool sender  = i % 2 == 1;
    t.exec       = sender ? CostFunction::polynomial(whole(rng, 0, 2), whole(rng, 20, 60))
                          : CostFunction::polynomial(whole(rng, 0, 3), whole(rng, 0, 10), pick(rng, {0, 0.5}));
    t.p_min      = static_cast<int>(rng.integer(1, 3));
    t.replicable = sender || rng.uniform01() < 0.3;
    chain.tasks.push_back(t);
  }
  for (int i = 1; i < k; ++i) {
    chain.icom.push_back(CostFunction::polynomial(whole(rng, 0, 40), whole(rng, 0, 40)));
    chain.ecom.push_back(CommFunction::polynomial(whole(rng, 0, 2), whole(rng, 10, 60), whole(rng, 0, 10)));
  }
  return chain;
}

std::string text(const CostFunction& f)
{
  if (f.is_table()) return fmt::format("{{table: [{}], from: {}}}", fmt::join(f.table, ", "), f.from);
  return fmt::format("[{}]", fmt::join(f.c, ", "));
}

std::string text(const CommFunction& f)
{
  if (not f.is_table()) return fmt::format("[{}]", fmt::join(f.c, ", "));
  std::vector<std::string> rows;
  for (const auto& row : f.table)
    rows.push_back(fmt::format("[{}]", fmt::join(row, ", ")));
  return fmt::format("{{table: [{}]}}", fmt::join(rows, ", "));
}
} // namespace

Sv95Instance sv95_tiny_instance(std::uint64_t seed)
{
  Rng rng(seed);
  Sv95Instance instance;
  instance.seed = seed;
  int k         = static_cast<int>(rng.integer(1, 4));
  instance.P    = static_cast<int>(rng.integer(1, 10));
  if (seed % 4 == 0) {
    instance.P     = static_cast<int>(rng.integer(4, 10));
    instance.chain = replication_chain(rng, std::max(2, k));
  } else {
    instance.chain = mixed_chain(rng, k, instance.P);
  }
  for (Task& t : instance.chain.tasks) { // a task needing more than P processors is bad input, not a test case
    t.p_min = std::min(t.p_min, instance.P);
    if (t.memory > instance.P) t.memory = 0;
  }
  return instance;
}

std::string Sv95Instance::describe() const
{
  std::string out = fmt::format("seed {}: P = {}, k = {}", seed, P, chain.k());
  if (chain.input.is_table() || chain.input.c != std::array<double, 3>{0, 0, 0})
    out += fmt::format(", input {}", text(chain.input));
  if (chain.output.is_table() || chain.output.c != std::array<double, 3>{0, 0, 0})
    out += fmt::format(", output {}", text(chain.output));
  for (int i = 1; i <= chain.k(); ++i) {
    const Task& t = chain.task(i);
    out += fmt::format("\n  t{}: exec {}, p_min {}, memory {}, replicable {}", i, text(t.exec), t.p_min, t.memory,
                       t.replicable);
    if (i < chain.k())
      out += fmt::format("\n    icom {}, ecom {}", text(chain.icom_after(i)), text(chain.ecom_after(i)));
  }
  return out;
}

} // namespace pipesim::fixtures
