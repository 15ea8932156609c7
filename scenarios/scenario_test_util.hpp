// Test helper: parse a scenario text labelled "test.yaml" and check the InputError message's parts.
#pragma once

#include "base/input_error.hpp"
#include "scenarios/scenario.hpp"

#include <gtest/gtest.h>
#include <string>
#include <vector>

namespace pipesim {

inline void expect_input_error(const std::string& text, const std::vector<std::string>& parts)
{
  try {
    parse_scenario(text, "test.yaml");
    ADD_FAILURE() << "no InputError for:\n" << text;
  } catch (const InputError& e) {
    const std::string message = e.what();
    for (const std::string& part : parts)
      EXPECT_NE(message.find(part), std::string::npos) << "message: " << message << "\nlacks: " << part;
  }
}

} // namespace pipesim
