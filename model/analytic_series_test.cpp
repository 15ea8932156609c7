// The per-epoch analytic series against eq. (2) worked by hand at each epoch's values.
#include "base/input_error.hpp"
#include "model/analytic_series.hpp"

#include <cmath>
#include <gtest/gtest.h>

using namespace pipesim;

namespace {

// Two processors in a chain, P_in = P_out = io, b = 10, c = 0: one-port interval mapping [1]:P1 [2]:P2.
//   P1: receive 10/10 = 1, compute 20/s_1, send 10/10 = 1;  P2: receive 1, compute 30/s_2, send 5/10 = 0.5.
// With s = (10, 10): cycle-times 4 and 4.5: eq. (2) period 4.5.
struct Chain {
  Pipeline pipeline{{20, 30}, {10, 10, 5}};
  Platform platform{{{"P1", 10}, {"P2", 10}}, "io", "io", 10, 0};
  Mapping mapping;
  Chain()
  {
    mapping.intervals = {Interval{1, 1, {{0}}, Replication::active}, Interval{2, 2, {{1}}, Replication::active}};
    platform.set_link(platform.in(), platform.out(), unbounded, 0);
  }
  void speed(const std::string& host, Profile p)
  {
    PlatformProfiles profiles = platform.profiles();
    HostProfiles h;
    h.host  = host;
    h.speed = std::move(p);
    profiles.hosts.push_back(h);
    platform.set_profiles(profiles);
  }
  std::vector<Epoch> series(double horizon, CommModel model = CommModel::one_port) const
  {
    return analytic_series(pipeline, platform, mapping, model, 1, {}, horizon);
  }
};

TEST(AnalyticSeries, AConstantPlatformIsOneEpoch)
{
  Chain c;
  auto s = c.series(100);
  ASSERT_EQ(s.size(), 1u);
  EXPECT_EQ(s[0].start, 0);
  EXPECT_EQ(s[0].end, 100);
  EXPECT_NEAR(s[0].period, 4.5, 1e-12);
}

TEST(AnalyticSeries, AStepSplitsTheSeries)
{
  // P1 at 0.25 from t = 30: compute 20/2.5 = 8, cycle 1 + 8 + 1 = 10; multi-port: max(1, 8, 1) = 8 against P2's 3
  Chain c;
  c.speed("P1", Profile{{{30, 0.25}}, 0, ""});
  auto s = c.series(100);
  ASSERT_EQ(s.size(), 2u);
  EXPECT_NEAR(s[0].period, 4.5, 1e-12);
  EXPECT_EQ(s[0].end, 30);
  EXPECT_EQ(s[1].start, 30);
  EXPECT_EQ(s[1].end, 100);
  EXPECT_NEAR(s[1].period, 10, 1e-12);
  auto m = c.series(100, CommModel::multi_port);
  ASSERT_EQ(m.size(), 2u);
  EXPECT_NEAR(m[0].period, 3, 1e-12);
  EXPECT_NEAR(m[1].period, 8, 1e-12);
}

TEST(AnalyticSeries, ChangesOfWhatTheMappingUsesMakeEpochsAndLoopsRepeat)
{
  // P2 alternates ratios 1 (period 4.5) and 2 (its cycle 1 + 1.5 + 0.5 = 3) every 10 s; P1 at 1.1 from t = 5 (cycle
  // 1 + 20/11 + 1 = 3.8181...) leaves the period at 4.5 while P2's rules, but its outputs pass a transient: an epoch
  // of its own. A third processor's profile changes nothing the mapping uses: no epoch.
  Chain c;
  c.platform = Platform{{{"P1", 10}, {"P2", 10}, {"P9", 1}}, "io", "io", 10, 0};
  c.platform.set_link(c.platform.in(), c.platform.out(), unbounded, 0);
  c.speed("P2", Profile{{{0, 1}, {10, 2}}, 20, ""});
  c.speed("P1", Profile{{{5, 1.1}}, 0, ""});
  c.speed("P9", Profile{{{7, 0.5}, {8, 1}}, 3, ""});
  auto s = c.series(45);
  ASSERT_EQ(s.size(), 6u); // [0, 5) [5, 10) [10, 20) [20, 30) [30, 40) [40, 45)
  EXPECT_NEAR(s[0].period, 4.5, 1e-12);
  EXPECT_NEAR(s[1].period, 4.5, 1e-12);
  EXPECT_EQ(s[1].start, 5);
  EXPECT_NEAR(s[2].period, 2 + 20.0 / 11, 1e-12);
  EXPECT_NEAR(s[3].period, 4.5, 1e-12);
  EXPECT_EQ(s[4].start, 30);
  EXPECT_EQ(s[5].end, 45);
}

TEST(AnalyticSeries, ACrashLeavesTheSurvivorsOrNothing)
{
  // I_2 actively replicated on {P2, P3}, P2 elected: P1 sends to both (cycle 1 + 2 + 1 + 1 = 5), P3 receives and
  // computes 30/5 = 6 without sending (cycle 7, the oneport-active formula), P2 4.5: period 7. P3 off from t = 20:
  // P2 alone, P1 sends once: 4.5. P2 off from 40: I_2 has no replica left, infinite.
  Chain c;
  c.platform = Platform{{{"P1", 10}, {"P2", 10}, {"P3", 5}}, "io", "io", 10, 0};
  c.platform.set_link(c.platform.in(), c.platform.out(), unbounded, 0);
  c.mapping.intervals[1].replicas = {{1}, {2}};
  PlatformProfiles profiles;
  for (auto [host, date] : {std::pair{"P3", 20.0}, std::pair{"P2", 40.0}}) {
    HostProfiles h;
    h.host  = host;
    h.state = Profile{{{date, 0}, {date + 5, 1}}, 0, ""}; // back on after 5 s: still dead (a crash)
    profiles.hosts.push_back(h);
  }
  c.platform.set_profiles(profiles);
  auto s = c.series(60);
  ASSERT_EQ(s.size(), 3u);
  EXPECT_NEAR(s[0].period, 7, 1e-12);
  EXPECT_NEAR(s[1].period, 4.5, 1e-12);
  EXPECT_EQ(s[1].hosts_off, std::vector<std::string>{"P3"});
  EXPECT_TRUE(std::isinf(s[2].period));
  EXPECT_EQ(s[2].hosts_off, (std::vector<std::string>{"P3", "P2"}));
}

TEST(AnalyticSeries, TooManyChangesAreRefused)
{
  Chain c;
  c.speed("P1", Profile{{{0, 1}, {0.5, 2}}, 1, ""});
  EXPECT_THROW(c.series(1e7), InputError); // 2e7 changes
}

} // namespace
