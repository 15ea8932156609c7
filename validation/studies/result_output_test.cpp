// The JSON half of the one policy for non-finite numbers: null in every document, "inf" in the tables.
#include "validation/evaluation/result_output.hpp"
#include "validation/studies/whatif.hpp"

#include <gtest/gtest.h>
#include <limits>
#include <nlohmann/json.hpp>

using namespace pipesim;

namespace {
constexpr double inf = std::numeric_limits<double>::infinity();
}

TEST(ResultOutput, NonFiniteNumbersAreNullInJson)
{
  EXPECT_EQ(json_number(2.5), nlohmann::json(2.5));
  EXPECT_TRUE(json_number(inf).is_null());
  EXPECT_TRUE(json_number(-inf).is_null());
  EXPECT_TRUE(json_number(std::numeric_limits<double>::quiet_NaN()).is_null());
  EXPECT_TRUE(json_number(std::optional<double>()).is_null());
  EXPECT_EQ(json_number(std::optional<double>(0.0)), nlohmann::json(0.0));
  EXPECT_EQ(to_string(ResultFormat::json), "json");
}

TEST(ResultOutput, WhatIfInfinitePeriodIsNullInJsonAndInfInTheTable)
{
  WhatIfStudy study;
  study.scenario                  = "s";
  study.baseline.mapping          = "[1]:P1";
  study.baseline.analytic_period  = inf; // e.g. a pair without bandwidth
  study.baseline.analytic_latency = 3;
  nlohmann::json j                = study;
  EXPECT_TRUE(j["baseline"]["analytic"]["period"].is_null()) << j.dump(); // was the string "inf"
  EXPECT_EQ(j["baseline"]["analytic"]["latency"], 3.0);
  std::string table = whatif_table(study);
  EXPECT_NE(table.find("inf"), std::string::npos) << table;
}
