// Tests of profiles: values over time as SimGrid runs them, SimGrid's file format, the platform at a date.
#include "base/input_error.hpp"
#include "platforms/platform.hpp"
#include "platforms/profile.hpp"
#include "platforms/profile_file.hpp"
#include "platforms/profile_json.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace pipesim {
namespace {

using ::testing::HasSubstr;

std::string profile_error_of(const std::function<void()>& f)
{
  try {
    f();
  } catch (const InputError& e) {
    return e.what();
  }
  return "no error";
}

TEST(Profile, ValueBeforeTheFirstDateIsTheResourcesOwn)
{
  Profile p{{{5, 0.5}, {10, 2}}, 0, ""};
  EXPECT_EQ(p.value_at(0, 1.0), 1.0);
  EXPECT_EQ(p.value_at(4.999, 7.0), 7.0);
  EXPECT_EQ(p.value_at(5, 1.0), 0.5);
  EXPECT_EQ(p.value_at(9.5, 1.0), 0.5);
  EXPECT_EQ(p.value_at(1e9, 1.0), 2); // no loop: the last value holds
}

TEST(Profile, LoopRepeatsThePointsEveryPeriod)
{
  // SimGrid's examples/platforms/profiles/jupiter_speed.profile: 0 0.5, 2 1.0, 4 0.7, 6 0.1, 8 4, LOOPAFTER 10:
  // the next repetition starts 10 s after the last point, at 18 (period 18).
  Profile p{{{0, 0.5}, {2, 1.0}, {4, 0.7}, {6, 0.1}, {8, 4}}, 18, ""};
  EXPECT_EQ(p.value_at(7.9, 1), 0.1);
  EXPECT_EQ(p.value_at(17.9, 1), 4); // between two repetitions the last value holds
  EXPECT_EQ(p.value_at(18, 1), 0.5);
  EXPECT_EQ(p.value_at(20.5, 1), 1.0);
  EXPECT_EQ(p.value_at(18 * 1000 + 6, 1), 0.1);
  // a first date > 0: link1_bandwidth.profile, 2 2e6, 4 3e6, LOOPAFTER 6 (period 10): 2e6 at 2, 12, 22, ...
  Profile b{{{2, 2e6}, {4, 3e6}}, 10, ""};
  EXPECT_EQ(b.value_at(1, 1e6), 1e6);
  EXPECT_EQ(b.value_at(11.9, 1e6), 3e6); // repetition 0's last value until repetition 1's first point
  EXPECT_EQ(b.value_at(12, 1e6), 2e6);
  EXPECT_EQ(b.value_at(14, 1e6), 3e6);
  EXPECT_THAT(b.change_dates(25), ::testing::ElementsAre(2, 4, 12, 14, 22, 24));
}

TEST(ProfileFile, ReadsSimgridsExamplesWithTheirPeriods)
{
  Profile jupiter = parse_profile_text("0 0.5\n2 1.0\n4 0.7\n6 0.1\n8 4\nLOOPAFTER 10", "jupiter", ProfileKind::speed);
  EXPECT_EQ(jupiter.points.size(), 5u);
  EXPECT_EQ(jupiter.period, 18); // last date 8 + 10
  Profile failure = parse_profile_text("1 0.0\n2 1.0\nLOOPAFTER 8\n", "trace_A_failure", ProfileKind::state);
  EXPECT_EQ(failure.period, 10);
  Profile periodic = parse_profile_text("# comment\n\n% also\n0 1\n5 2\nPERIODICITY 7\n", "f", ProfileKind::latency);
  EXPECT_EQ(periodic.period, 7);
  EXPECT_EQ(parse_profile_text(profile_text(jupiter), "again", ProfileKind::speed), jupiter);
}

TEST(ProfileFile, BadLinesNameTheFileTheLineAndWhy)
{
  auto parse = [](const std::string& text, ProfileKind kind) {
    return profile_error_of([&] { parse_profile_text(text, "p.profile", kind); });
  };
  EXPECT_THAT(parse("0 1\n5 2\n3 1\n", ProfileKind::speed), HasSubstr("p.profile:3: speed profile line '3 1': dates"));
  EXPECT_THAT(parse("0 1\n5 -2\n", ProfileKind::bandwidth), HasSubstr("p.profile:2:"));
  EXPECT_THAT(parse("0 0\n", ProfileKind::speed), HasSubstr("expected a speed > 0"));
  EXPECT_THAT(parse("0 -1\n", ProfileKind::latency), HasSubstr("expected a latency >= 0"));
  EXPECT_THAT(parse("STOCHASTIC\n", ProfileKind::speed), HasSubstr("stochastic"));
  EXPECT_THAT(parse("0 UNIF 1 2\n", ProfileKind::speed), HasSubstr("p.profile:1:"));
  EXPECT_THAT(parse("0 1\nLOOPAFTER 2\nPERIODICITY 4\n", ProfileKind::speed), HasSubstr("p.profile:3:"));
  EXPECT_THAT(parse("0 1\n4 2\nLOOPAFTER 0\n", ProfileKind::speed), HasSubstr("loop period must exceed"));
  EXPECT_THAT(parse("0 1\n4 2\nPERIODICITY 3\n", ProfileKind::speed), HasSubstr("must be >= the last date"));
  EXPECT_THAT(parse("# nothing\n", ProfileKind::speed), HasSubstr("no 'DATE VALUE' line"));
  EXPECT_EQ(parse("1 1\n4 2\nLOOPAFTER 0\n", ProfileKind::speed), "no error"); // next repetition at 1 + 4 > 4
}

Platform two_processors()
{
  Platform p({{"P1", 10}, {"P2", 20}}, "in", "out", 100, 0.5);
  p.processor(0).nic_in = 40;
  return p;
}

TEST(PlatformAt, AppliesRatiosOfTheNominalValues)
{
  Platform p = two_processors();
  PlatformProfiles profiles;
  HostProfiles h;
  h.host   = "P1";
  h.speed  = Profile{{{0, 0.5}, {10, 0.25}}, 0, ""};
  h.nic_in = Profile{{{3, 2}}, 0, ""};
  profiles.hosts.push_back(h);
  PairProfiles pair;
  pair.from      = "in";
  pair.to        = "P1";
  pair.bandwidth = Profile{{{5, 0.1}}, 0, ""};
  pair.latency   = Profile{{{5, 3}}, 0, ""};
  profiles.pairs.push_back(pair);
  p.set_profiles(profiles);
  Platform at0 = platform_at(p, 0);
  EXPECT_EQ(at0.speed(0), 5);
  EXPECT_EQ(at0.processor(0).nic_in, 40);
  EXPECT_EQ(at0.bandwidth(p.in(), 0), 100);
  Platform at7 = platform_at(p, 7);
  EXPECT_EQ(at7.processor(0).nic_in, 80);
  EXPECT_EQ(at7.bandwidth(p.in(), 0), 10);
  EXPECT_EQ(at7.latency(p.in(), 0), 1.5);
  EXPECT_EQ(at7.bandwidth(0, p.in()), 100); // the other direction has no profile
  EXPECT_EQ(platform_at(p, 10).speed(0), 2.5);
  EXPECT_EQ(platform_at(p, 10).speed(1), 20);
  EXPECT_TRUE(platform_at(p, 10).profiles().empty());
  EXPECT_THAT(profile_change_dates(p, 10), ::testing::ElementsAre(3, 5));
}

TEST(PlatformAt, XmlRoutesTakeTheirLinksValuesAtTheDate)
{
  // route in -> P1 over links a (100 B/s, 0.1 s) and b (50 B/s, 0.2 s); b's bandwidth drops to 20 at t = 4, its
  // latency rises to 1 at t = 6, and it is off from t = 8: b = min over the hops, c = their sum.
  Platform p = two_processors();
  PlatformProfiles profiles;
  LinkProfiles b;
  b.link              = "b";
  b.bandwidth         = 50;
  b.latency           = 0.2;
  b.bandwidth_profile = Profile{{{4, 20}}, 0, ""};
  b.latency_profile   = Profile{{{6, 1}}, 0, ""};
  b.state_profile     = Profile{{{8, 0}}, 0, ""};
  profiles.links.push_back(b);
  profiles.routes.push_back({p.in(), 0, {{"a", 100, 0.1}, {"b_UP", 50, 0.2}}}); // a SPLITDUPLEX half of b
  p.set_profiles(profiles);
  EXPECT_EQ(platform_at(p, 0).bandwidth(p.in(), 0), 50);
  EXPECT_DOUBLE_EQ(platform_at(p, 0).latency(p.in(), 0), 0.3);
  EXPECT_EQ(platform_at(p, 5).bandwidth(p.in(), 0), 20);
  EXPECT_DOUBLE_EQ(platform_at(p, 7).latency(p.in(), 0), 1.1);
  EXPECT_FALSE(platform_at(p, 9).reachable(p.in(), 0));
  EXPECT_THAT(profile_change_dates(p, 100), ::testing::ElementsAre(4, 6, 8));
}

TEST(PlatformAt, StateProfilesSayWhichHostsAreOff)
{
  Platform p = two_processors();
  PlatformProfiles profiles;
  HostProfiles h;
  h.host  = "P2";
  h.state = Profile{{{2, 0}, {3, 1}}, 10, ""};
  profiles.hosts.push_back(h);
  p.set_profiles(profiles);
  EXPECT_TRUE(hosts_off_at(p, 1).empty());
  EXPECT_THAT(hosts_off_at(p, 2.5), ::testing::ElementsAre("P2"));
  EXPECT_TRUE(hosts_off_at(p, 3).empty());
  EXPECT_THAT(hosts_off_at(p, 12), ::testing::ElementsAre("P2"));
  EXPECT_TRUE(p.profiles().has_state());
}

TEST(ProfileJson, RoundTripsEveryKind)
{
  PlatformProfiles profiles;
  HostProfiles h;
  h.host           = "P1";
  h.speed          = Profile{{{0, 0.5}, {1.25, 0.1}}, 7.5, "s.profile"};
  h.state          = Profile{{{3, 0}}, 0, "x.yaml:4"};
  h.state_from_xml = true;
  h.source         = "x.yaml:3";
  profiles.hosts.push_back(h);
  profiles.pairs.push_back({"in", "P1", Profile{{{1, 2}}, 0, ""}, std::nullopt, "x.yaml:9"});
  LinkProfiles l;
  l.link            = "L";
  l.bandwidth       = 1e6;
  l.latency         = 0.01;
  l.latency_profile = Profile{{{1, 0.003}, {3, 0.015}}, 9, "lat"};
  profiles.links.push_back(l);
  profiles.routes.push_back({0, 1, {{"L", 1e6, 0.01}}});
  PlatformProfiles back = profiles_from_json(nlohmann::json::parse(profiles_to_json(profiles).dump()));
  EXPECT_EQ(profiles_to_json(back), profiles_to_json(profiles));
  ASSERT_EQ(back.hosts.size(), 1u);
  EXPECT_EQ(*back.hosts[0].speed, *h.speed);
  EXPECT_EQ(back.hosts[0].speed->source, "s.profile");
  EXPECT_TRUE(back.hosts[0].state_from_xml);
}

} // namespace
} // namespace pipesim
