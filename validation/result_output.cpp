// The JSON policy for non-finite numbers.
#include "validation/result_output.hpp"

#include <cmath>
#include <nlohmann/json.hpp>

namespace pipesim {

nlohmann::json json_number(double x) { return std::isfinite(x) ? nlohmann::json(x) : nlohmann::json(nullptr); }

nlohmann::json json_number(std::optional<double> x) { return x ? json_number(*x) : nlohmann::json(nullptr); }

} // namespace pipesim
