// Tests of the SimGrid-style unit parsing used for host properties.
#include "base/units.hpp"

#include <gtest/gtest.h>

namespace pipesim {
namespace {

TEST(Units, Bandwidth)
{
  EXPECT_EQ(parse_bandwidth_text("5e7"), 5e7);
  EXPECT_EQ(parse_bandwidth_text("100MBps"), 1e8);
  EXPECT_EQ(parse_bandwidth_text("1.25GBps"), 1.25e9);
  EXPECT_EQ(parse_bandwidth_text("1Gbps"), 1.25e8);
  EXPECT_EQ(parse_bandwidth_text("2KiBps"), 2048);
  EXPECT_EQ(parse_bandwidth_text("3Bps"), 3);
  EXPECT_EQ(parse_bandwidth_text("inf"), std::numeric_limits<double>::infinity());
  EXPECT_EQ(parse_bandwidth_text("100MB"), std::nullopt);
  EXPECT_EQ(parse_bandwidth_text("fast"), std::nullopt);
  EXPECT_EQ(parse_bandwidth_text(""), std::nullopt);
  EXPECT_EQ(parse_bandwidth_text(" 5"), std::nullopt);
  EXPECT_EQ(parse_bandwidth_text("nan"), std::nullopt);
}

TEST(Units, Duration)
{
  EXPECT_EQ(parse_duration_text("3600"), 3600);
  EXPECT_EQ(parse_duration_text("2h"), 7200);
  EXPECT_EQ(parse_duration_text("1.5m"), 90);
  EXPECT_EQ(parse_duration_text("1d"), 86400);
  EXPECT_EQ(parse_duration_text("1w"), 604800);
  EXPECT_EQ(parse_duration_text("5ms"), 5e-3);
  EXPECT_EQ(parse_duration_text("10s"), 10);
  EXPECT_EQ(parse_duration_text("10 s"), std::nullopt);
  EXPECT_EQ(parse_duration_text("10sec"), std::nullopt);
}

TEST(Units, PlainNumber)
{
  EXPECT_EQ(parse_number_text("0.25"), 0.25);
  EXPECT_EQ(parse_number_text("1e-3"), 1e-3);
  EXPECT_EQ(parse_number_text("0.25x"), std::nullopt);
  EXPECT_EQ(parse_number_text("x"), std::nullopt);
}

} // namespace
} // namespace pipesim
