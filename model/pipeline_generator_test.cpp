// Tests of the seeded pipeline generator: determinism, draw order and ranges.
#include "model/pipeline_generator.hpp"

#include "base/input_error.hpp"

#include <gtest/gtest.h>

namespace pipesim {
namespace {

TEST(PipelineGenerator, SameSeedSamePipeline)
{
  Range w{1, 20, false};
  Range delta{5, 10, false};
  Pipeline a = generate_pipeline(20, w, delta, 3);
  Pipeline b = generate_pipeline(20, w, delta, 3);
  EXPECT_EQ(a.w, b.w);
  EXPECT_EQ(a.delta, b.delta);
  Pipeline c = generate_pipeline(20, w, delta, 4);
  EXPECT_NE(a.w, c.w);
}

TEST(PipelineGenerator, SizesAndRanges)
{
  Pipeline p = generate_pipeline(50, Range{1, 20, false}, Range{0, 3, true}, 7);
  ASSERT_EQ(p.n(), 50);
  ASSERT_EQ(p.delta.size(), 51u);
  for (double w : p.w) {
    EXPECT_GE(w, 1);
    EXPECT_LE(w, 20);
  }
  for (double d : p.delta) {
    EXPECT_GE(d, 0);
    EXPECT_LE(d, 3);
    EXPECT_EQ(d, static_cast<double>(static_cast<int>(d))); // integer range
  }
}

TEST(PipelineGenerator, DrawOrderIsWThenDelta)
{
  // The documented order: w_1..w_n from the first draws of Rng(seed), then delta_0..delta_n.
  Range w{1, 20, false};
  Range delta{2, 9, false};
  Pipeline p = generate_pipeline(3, w, delta, 11);
  Rng rng(11);
  for (int i = 1; i <= 3; ++i)
    EXPECT_EQ(p.work(i), w.draw(rng));
  for (int i = 0; i <= 3; ++i)
    EXPECT_EQ(p.data(i), delta.draw(rng));
}

TEST(PipelineGenerator, ConstantRanges)
{
  Pipeline p = generate_pipeline(4, Range{10, 20, false}, Range{10, 10, false}, 1);
  EXPECT_EQ(p.delta, std::vector<double>(5, 10.0));
}

TEST(PipelineGenerator, NormalRangesFollowTheDrawOrder)
{
  // Same order with normal ranges: each w and delta is one Range::draw (which may redraw internally).
  Range w     = Range::normal(10, 5);
  Range delta = Range::normal(1, 0.5);
  Pipeline p  = generate_pipeline(50, w, delta, 13);
  Rng rng(13);
  for (int i = 1; i <= 50; ++i) {
    EXPECT_EQ(p.work(i), w.draw(rng));
    EXPECT_GT(p.work(i), 0.0);
  }
  for (int i = 0; i <= 50; ++i) {
    EXPECT_EQ(p.data(i), delta.draw(rng));
    EXPECT_GT(p.data(i), 0.0);
  }
}

TEST(PipelineGenerator, RejectsBadArguments)
{
  EXPECT_THROW(generate_pipeline(0, Range{1, 1, false}, Range{1, 1, false}, 1), InputError);
  EXPECT_THROW(generate_pipeline(3, Range{-1, 1, false}, Range{1, 1, false}, 1), InputError);
  EXPECT_THROW(generate_pipeline(3, Range{1, 1, false}, Range{2, 1, false}, 1), InputError);
  EXPECT_THROW(generate_pipeline(3, Range::normal(0, 1), Range{1, 1, false}, 1), InputError);
  EXPECT_THROW(generate_pipeline(3, Range{1, 1, false}, Range::normal(1, -1), 1), InputError);
}

} // namespace
} // namespace pipesim
