// Mapping classification, subsets, validation messages and text form.
#include "base/input_error.hpp"
#include "model/mapping.hpp"

#include <gtest/gtest.h>

using namespace pipesim;

namespace {
Platform four() { return Platform({{"P1", 1.0}, {"P2", 2.0}, {"P3", 3.0}, {"P4", 4.0}}, "in", "out", 1.0); }
std::string message_of(const Mapping& m, const Pipeline& pl)
{
  try {
    validate(m, pl, four());
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}
} // namespace

TEST(Mapping, Classification)
{
  EXPECT_EQ(classify(make_interval_mapping({{1, 1}, {2, 2}}, {0, 1})), MappingRule::one_to_one);
  EXPECT_EQ(classify(make_interval_mapping({{1, 2}, {3, 3}}, {0, 1})), MappingRule::interval);
  EXPECT_EQ(classify(make_interval_mapping({{1, 1}, {2, 2}, {3, 3}}, {0, 1, 0})), MappingRule::general);
  Mapping replicated = make_interval_mapping({{1, 1}, {2, 2}}, {0, 1});
  replicated.intervals[0].replicas.push_back({2});
  EXPECT_EQ(classify(replicated), MappingRule::interval);
  EXPECT_TRUE(replicated.replicated());
}

TEST(Mapping, SubsetsGroupIntervalsBySameProcessorSet)
{
  Mapping m = make_interval_mapping({{1, 1}, {2, 2}, {3, 3}}, {0, 1, 0});
  auto s    = subsets(m);
  ASSERT_EQ(s.intervals.size(), 2u);
  EXPECT_EQ(s.intervals[0], (std::vector<int>{0, 2}));
  EXPECT_EQ(s.processor_sets[1], (std::vector<int>{1}));
}

TEST(Mapping, ValidationMessagesSayWhatIsWrong)
{
  Pipeline pl{{1, 1, 1}, {1, 1, 1, 1}};
  EXPECT_EQ(message_of(make_interval_mapping({{1, 1}, {2, 3}}, {0, 1}), pl), "");
  EXPECT_NE(message_of(make_interval_mapping({{1, 2}, {2, 3}}, {0, 1}), pl).find("overlaps the previous interval"),
            std::string::npos);
  EXPECT_NE(message_of(make_interval_mapping({{1, 1}, {3, 3}}, {0, 1}), pl).find("stage 2 is not covered"),
            std::string::npos);
  EXPECT_NE(message_of(make_interval_mapping({{1, 2}}, {0}), pl).find("stages 3-3 are not covered"), std::string::npos);
  Mapping twice                  = make_interval_mapping({{1, 3}}, {0});
  twice.intervals[0].replicas[0] = {1, 1};
  EXPECT_NE(
      message_of(twice, pl).find("key 'mapping[0].replicas[0]': value 'P2': the group names this processor twice"),
      std::string::npos);
  Mapping two_replicas = make_interval_mapping({{1, 3}}, {2});
  two_replicas.intervals[0].replicas.push_back({2});
  EXPECT_NE(message_of(two_replicas, pl).find("value 'P3': this processor is in two replicas of the interval"),
            std::string::npos);
  EXPECT_NE(message_of(make_interval_mapping({{1, 3}}, {7}), pl).find("index 7"), std::string::npos);
}

TEST(Mapping, TextForm)
{
  Mapping m = make_interval_mapping({{1, 2}, {3, 3}}, {0, 1});
  m.intervals[1].replicas.push_back({2, 3});
  EXPECT_EQ(to_text(m, four()), "[1-2]:P1 [3]:P2|P3+P4");
}
