// Who processes and sends each data set under deal replication, and the round L.
#include "model/deal.hpp"

#include "base/input_error.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

using namespace pipesim;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

namespace {
Interval interval(int replicas, Replication replication)
{
  Interval in{1, 1, {}, replication};
  for (int r = 0; r < replicas; ++r)
    in.replicas.push_back({r});
  return in;
}
} // namespace

TEST(Deal, RoundIsTheLcmOfTheDealtReplicaCounts)
{
  Mapping mp{{interval(2, Replication::deal), interval(3, Replication::deal), interval(4, Replication::active)}};
  EXPECT_EQ(deal_round(mp), 6); // the active interval's 4 replicas do not count
  mp.intervals.push_back(interval(4, Replication::deal));
  EXPECT_EQ(deal_round(mp), 12);
  Mapping none{{interval(3, Replication::active), interval(1, Replication::deal)}};
  EXPECT_EQ(deal_round(none), 1);
  Mapping bench{{interval(5, Replication::deal), interval(7, Replication::deal), interval(9, Replication::deal),
                 interval(16, Replication::deal)}};
  EXPECT_EQ(deal_round(bench), 5040);
}

TEST(Deal, RoundTooLargeIsRefused)
{
  Mapping mp;
  for (int r : {97, 89, 83, 79}) // 97 x 89 x 83 = 716,539, then 56,606,581 > 1,000,000
    mp.intervals.push_back(interval(r, Replication::deal));
  try {
    deal_round(mp);
    FAIL() << "no InputError";
  } catch (const InputError& e) {
    EXPECT_THAT(e.what(),
                HasSubstr("key 'mapping[3].replicas': value '79': deal replication: the replica counts of the dealt "
                          "intervals up to this one have a least common multiple of 56606581, above "
                          "the limit of 1000000"));
  }
}

TEST(Deal, ReplicaKModRProcessesAndSendsDataSetK)
{
  Interval dealt = interval(3, Replication::deal);
  EXPECT_THAT(processing_replicas(dealt, 7), ElementsAre(1));
  EXPECT_TRUE(processes(dealt, 1, 7));
  EXPECT_FALSE(processes(dealt, 0, 7));
  EXPECT_EQ(sending_replica(dealt, 7, 2), 1); // the election does not matter
  Interval active = interval(3, Replication::active);
  EXPECT_THAT(processing_replicas(active, 7), ElementsAre(0, 1, 2));
  EXPECT_TRUE(processes(active, 2, 7));
  EXPECT_EQ(sending_replica(active, 7), 0);    // replica 0 without election
  EXPECT_EQ(sending_replica(active, 7, 2), 2); // processor 2 is replica 2
  EXPECT_EQ(replica_of(active, 5), -1);
}
