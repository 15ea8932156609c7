// Measurement helpers shared by every simulation model, and the names of the election policies.
#include "simulator/simulation.hpp"

#include "model/bbr10/election.hpp"

#include <algorithm>
#include <stdexcept>

namespace pipesim {

const char* to_string(NetworkMode mode) { return mode == NetworkMode::exact ? "exact" : "simgrid"; }

std::vector<std::string> election_policy_names()
{
  std::vector<std::string> names{"first"};
  for (auto& name : bbr10_election_names())
    names.push_back(std::move(name));
  return names;
}

double measured_period(const std::vector<double>& output_times, int warmup, int cooldown)
{
  auto n = static_cast<int>(output_times.size());
  if (cooldown > 0 && n - cooldown - std::max(warmup, 1) >= 1) n -= cooldown;
  if (n < 2) return 0;                       // one data set has no period
  if (warmup < 1 || warmup >= n) warmup = 1; // with K = 0 the first output (t_1) is the reference
  // DESIGN.md §3.7: (t_N - t_K) / (N - K) with t numbered from 1
  return (output_times[static_cast<std::size_t>(n - 1)] - output_times[static_cast<std::size_t>(warmup - 1)]) /
         (n - warmup);
}

} // namespace pipesim
