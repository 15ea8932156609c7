// hedpm eqs. (3)-(6): times of the average stage and processor, and the ideal production time.
#include "model/hedpm/average_times.hpp"

#include <cassert>
#include <numeric>
#include <vector>

namespace pipesim {

namespace {

struct LinkSums {
  double c  = 0;
  double b  = 0;
  int count = 0;
  void add(const Platform& platform, int u, int v)
  {
    c += platform.latency(u, v);
    b += platform.bandwidth(u, v);
    ++count;
  }
  HedpmMeanLink mean() const { return {c / count, b / count}; }
};

std::vector<int> all_processors(const Platform& platform)
{
  std::vector<int> list(static_cast<std::size_t>(platform.p()));
  std::iota(list.begin(), list.end(), 0);
  return list;
}

} // namespace

HedpmMeanLink hedpm_mean_link(const Platform& platform, std::span<const int> processors)
{
  assert(not processors.empty());
  LinkSums sums;
  for (int u : processors)
    for (int v : processors)
      if (u != v) sums.add(platform, u, v);
  if (sums.count == 0)
    for (int u : processors) {
      sums.add(platform, platform.in(), u);
      sums.add(platform, u, platform.out());
    }
  return sums.mean();
}

HedpmMeanLink hedpm_mean_link_of(const Platform& platform, int u, std::span<const int> others, bool incoming)
{
  LinkSums sums;
  for (int v : others)
    if (v != u) {
      if (incoming)
        sums.add(platform, v, u);
      else
        sums.add(platform, u, v);
    }
  if (sums.count == 0) {
    if (incoming)
      sums.add(platform, platform.in(), u);
    else
      sums.add(platform, u, platform.out());
  }
  return sums.mean();
}

double hedpm_mean_speed(const Platform& platform, std::span<const int> processors)
{
  assert(not processors.empty());
  double sum = 0;
  for (int u : processors)
    sum += platform.speed(u);
  return sum / static_cast<double>(processors.size());
}

double hedpm_eq3_stage_time(const Pipeline& pipeline, int n, double s_mean, HedpmMeanLink link)
{
  return hedpm_transfer(link, pipeline.data(n - 1)) + pipeline.work(n) / s_mean +
         hedpm_transfer(link, pipeline.data(n));
}

double hedpm_eq4_processor_time(double speed, double w_mean, double d_mean, HedpmMeanLink in, HedpmMeanLink out)
{
  return hedpm_transfer(in, d_mean) + w_mean / speed + hedpm_transfer(out, d_mean);
}

double hedpm_eq5_sa(int processors, int stages, double s_mean)
{
  return static_cast<double>(processors) / static_cast<double>(stages) * s_mean;
}

double hedpm_eq6_ideal_time(const Pipeline& pipeline, const Platform& platform, std::span<const int> stages,
                            std::span<const int> processors)
{
  assert(not stages.empty() && not processors.empty());
  double w_sum = 0;
  double d_sum = 0;
  for (int n : stages) {
    w_sum += pipeline.work(n);
    d_sum += pipeline.data(n);
  }
  auto count         = static_cast<double>(stages.size());
  double w_mean      = w_sum / count;
  double d_mean      = d_sum / count;
  double sa          = hedpm_eq5_sa(static_cast<int>(processors.size()), static_cast<int>(stages.size()),
                                    hedpm_mean_speed(platform, processors));
  HedpmMeanLink link = processors.size() >= 2 ? hedpm_mean_link(platform, processors)
                                              : hedpm_mean_link(platform, all_processors(platform));
  return hedpm_transfer(link, d_mean) + w_mean / sa + hedpm_transfer(link, d_mean);
}

} // namespace pipesim
