// Relative error between an analytic and a measured figure.
#pragma once

namespace pipesim {

/// |measured - reference| / |reference| (0 when both are 0).
double relative_error(double measured, double reference);

} // namespace pipesim
