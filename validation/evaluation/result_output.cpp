// The JSON policy for non-finite numbers, and the timing rule.
#include "validation/evaluation/result_output.hpp"

#include <cmath>
#include <nlohmann/json.hpp>

namespace pipesim {

nlohmann::json json_number(double x) { return std::isfinite(x) ? nlohmann::json(x) : nlohmann::json(nullptr); }

nlohmann::json json_number(std::optional<double> x) { return x ? json_number(*x) : nlohmann::json(nullptr); }

nlohmann::json without_timing(nlohmann::json j)
{
  if (j.is_object()) {
    j.erase(timing_key);
    for (auto& [key, value] : j.items())
      value = without_timing(std::move(value));
  } else if (j.is_array()) {
    for (auto& value : j)
      value = without_timing(std::move(value));
  }
  return j;
}

bool is_timing_column(const std::string& column) { return column.rfind(std::string(timing_key) + ".", 0) == 0; }

} // namespace pipesim
