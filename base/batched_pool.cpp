// Jobs run in batches of one process each, a failed batch again job by job.
#include "base/batched_pool.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace pipesim {

namespace {
/// A batch's results in one string: each as its length, ':', then its text.
std::string join_results(const std::vector<std::string>& results)
{
  std::string all;
  for (const std::string& r : results)
    all += std::to_string(r.size()) + ':' + r;
  return all;
}

std::vector<std::string> split_results(const std::string& all)
{
  std::vector<std::string> results;
  for (std::size_t at = 0; at < all.size();) {
    std::size_t colon = all.find(':', at);
    if (colon == std::string::npos) throw std::runtime_error("batched pool: a batch's results are cut short");
    std::size_t length = std::stoul(all.substr(at, colon - at));
    results.push_back(all.substr(colon + 1, length));
    at = colon + 1 + length;
  }
  return results;
}
} // namespace

std::vector<JobOutcome> run_pool_batched(int count, const PoolOptions& options, const BatchOptions& batches,
                                         const Job& job)
{
  const int size = std::max(1, batches.size);
  auto first     = [&](int b) { return std::min(count, b * size); };
  auto progress  = [&](int jobs) {
    if (batches.progress) batches.progress(jobs);
  };
  auto run_batch = [&](int b) {
    std::vector<std::string> results;
    for (int i = first(b); i < first(b + 1); ++i) {
      if (i > first(b) && batches.between) batches.between();
      results.push_back(job(i));
    }
    return join_results(results);
  };
  std::vector<JobOutcome> outcomes(static_cast<std::size_t>(std::max(count, 0)));
  std::vector<int> again; // the jobs of batches that did not finish
  run_pool((count + size - 1) / size, options, run_batch, [&](int b, JobOutcome&& o) {
    const int from = first(b), to = first(b + 1);
    if (!o.ok() && o.status != JobStatus::bad_input && to - from > 1) {
      for (int i = from; i < to; ++i)
        again.push_back(i);
      return;
    }
    std::vector<std::string> results = o.ok() ? split_results(o.text) : std::vector<std::string>{};
    if (o.ok() && results.size() != static_cast<std::size_t>(to - from))
      throw std::runtime_error("batched pool: a batch sent the wrong number of results");
    for (int i = from; i < to; ++i) {
      JobOutcome& outcome = outcomes[static_cast<std::size_t>(i)];
      outcome             = o;
      if (o.ok()) outcome.text = std::move(results[static_cast<std::size_t>(i - from)]);
    }
    progress(to - from);
  });
  run_pool(
      static_cast<int>(again.size()), options, [&](int k) { return job(again[static_cast<std::size_t>(k)]); },
      [&](int k, JobOutcome&& o) {
        outcomes[static_cast<std::size_t>(again[static_cast<std::size_t>(k)])] = std::move(o);
        progress(1);
      });
  return outcomes;
}

} // namespace pipesim
