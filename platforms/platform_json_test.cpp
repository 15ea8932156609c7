// Tests of the JSON form of Platform: exact round trip, infinities, malformed input.
#include "platforms/platform_json.hpp"

#include "base/input_error.hpp"

#include <gtest/gtest.h>

namespace pipesim {
namespace {

Platform sample()
{
  std::vector<Processor> processors(3);
  processors[0] = {"P1", 1.0 / 3.0, 0.1, unbounded, 123456.789, unbounded};
  processors[1] = {"P2", 2e9, 0.0, 1e8, unbounded, 3600};
  processors[2] = {"P10", 0.1 + 0.2, 0.25, 5e7, 6e7, 1e-3};
  Platform platform(processors, "in", "out", 1e7, 0.0);
  platform.set_link(0, 1, 3.3333333333333333e7, 1e-5 / 3);
  platform.set_link(platform.in(), 2, 1.0 / 7.0, 0.123456789012345678);
  platform.set_link(1, platform.out(), 9.87654321e12, 0.0);
  platform.set_xml_file("some/platform.xml");
  return platform;
}

void expect_same(const Platform& a, const Platform& b)
{
  ASSERT_EQ(a.p(), b.p());
  EXPECT_EQ(a.in_name(), b.in_name());
  EXPECT_EQ(a.out_name(), b.out_name());
  EXPECT_EQ(a.xml_file(), b.xml_file());
  for (int u = 0; u < a.p(); ++u) {
    EXPECT_EQ(a.processor(u).name, b.processor(u).name);
    EXPECT_EQ(a.processor(u).speed, b.processor(u).speed);
    EXPECT_EQ(a.processor(u).failure_probability, b.processor(u).failure_probability);
    EXPECT_EQ(a.processor(u).nic_in, b.processor(u).nic_in);
    EXPECT_EQ(a.processor(u).nic_out, b.processor(u).nic_out);
    EXPECT_EQ(a.processor(u).mtbf, b.processor(u).mtbf);
  }
  for (int u = 0; u < a.nodes(); ++u)
    for (int v = 0; v < a.nodes(); ++v) {
      EXPECT_EQ(a.bandwidth(u, v), b.bandwidth(u, v)) << u << "->" << v;
      EXPECT_EQ(a.latency(u, v), b.latency(u, v)) << u << "->" << v;
    }
}

TEST(PlatformJson, ExactRoundTripThroughText)
{
  Platform platform = sample();
  std::string text  = platform_to_json(platform).dump();
  expect_same(platform, platform_from_json(nlohmann::json::parse(text)));
}

TEST(PlatformJson, InfinityIsTheStringInf)
{
  nlohmann::json j = platform_to_json(sample());
  EXPECT_EQ(j["processors"][0]["nic_in"], "inf");
  EXPECT_EQ(j["processors"][0]["nic_out"], 123456.789);
  EXPECT_EQ(j["bandwidth"][0][0], "inf"); // b(u, u)
  EXPECT_EQ(j["latency"][0][0], 0.0);
  EXPECT_EQ(j["in"], "in");
  EXPECT_EQ(j["bandwidth"].size(), 5u);
}

TEST(PlatformJson, AdlHooksAndSharedIoHost)
{
  Platform platform(std::vector<Processor>{{"A", 5}}, "io", "io", 2.5, 0.5);
  nlohmann::json j = platform;
  auto back        = j.get<Platform>();
  EXPECT_TRUE(back.io_same_host());
  expect_same(platform, back);
}

TEST(PlatformJson, MalformedInputIsAnInputError)
{
  nlohmann::json j     = platform_to_json(sample());
  j["bandwidth"][0][1] = "fast";
  EXPECT_THROW(platform_from_json(j), InputError);
  j = platform_to_json(sample());
  j["latency"].erase(0);
  EXPECT_THROW(platform_from_json(j), InputError);
  j = platform_to_json(sample());
  j["processors"][1].erase("speed");
  try {
    platform_from_json(j);
    FAIL();
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("key 'platform.processors[1].speed': platform JSON: missing key"),
              std::string::npos)
        << e.what();
  }
}

} // namespace
} // namespace pipesim
