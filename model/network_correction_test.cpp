// LV08's factors on the platform and the pipeline (network_correction.hpp), by hand.
#include "model/network_correction.hpp"

#include <gtest/gtest.h>

using namespace pipesim;

TEST(NetworkCorrection, Lv08PlatformScalesLinksCardsAndLatencies)
{
  Platform pf({{"P1", 2.0, 0.1, 100, 200}, {"P2"}}, "in", "out", 1e7, 0);
  pf.set_link(0, 1, 1e7, 0.5); // gamma / 2c = 4194304 < 1e7: the TCP window bounds the rate
  pf.set_link(1, 0, 0, 0.5);   // unreachable stays unreachable
  Platform lv = lv08_platform(pf);
  EXPECT_DOUBLE_EQ(lv.bandwidth(0, 1), 0.97 * 4194304);
  EXPECT_DOUBLE_EQ(lv.latency(0, 1), 13.01 * 0.5);
  EXPECT_EQ(lv.bandwidth(1, 0), 0);
  EXPECT_DOUBLE_EQ(lv.bandwidth(pf.in(), 0), 0.97 * 1e7); // c = 0: no window bound
  EXPECT_EQ(lv.latency(pf.in(), 0), 0);
  EXPECT_DOUBLE_EQ(lv.processor(0).nic_in, 97);
  EXPECT_DOUBLE_EQ(lv.processor(0).nic_out, 194);
  EXPECT_EQ(lv.processor(1).nic_in, unbounded);
  EXPECT_EQ(lv.speed(0), 2.0);
  EXPECT_EQ(lv.processor(0).failure_probability, 0.1);
  // one transfer of 1e8 bytes on P1 -> P2: 6.505 + 1e8 / (0.97 x 4194304) = 31.084... s, as the platform says
  EXPECT_DOUBLE_EQ(lv08_transfer_time(1e8, 1e7, 0.5), 13.01 * 0.5 + 1e8 / (0.97 * 4194304));
  EXPECT_DOUBLE_EQ(lv.transfer_time(0, 1, 1e8), lv08_transfer_time(1e8, 1e7, 0.5));
  EXPECT_EQ(lv08_transfer_time(1, 0, 0), unbounded);
}

TEST(NetworkCorrection, Lv08PipelineSendsWholeBytes)
{
  Pipeline pl{{1, 2}, {0.4, 2.5, 1e6 + 0.6}};
  Pipeline lv = lv08_pipeline(pl);
  EXPECT_EQ(lv.w, pl.w);
  EXPECT_EQ(lv.delta, (std::vector<double>{0, 3, 1e6 + 1})); // std::llround's halves, away from zero
}
