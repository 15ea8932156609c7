// Exponential and normal draws by the ziggurat method: a table lookup, a multiplication and a comparison for about
// 99 % of the draws, a logarithm or an exponential only for the rest.
//
// Source: Marsaglia and Tsang, "The Ziggurat Method for Generating Random Variables", Journal of Statistical Software
// 5(8), 2000: 256 layers of equal area for the exponential (r = 7.69711747013104972), 128 for the normal
// (r = 3.442619855899), tables built once at first use. Unlike the paper's code, the layer and the abscissa come from
// separate bits of one 64-bit draw (the low 8 or 7 bits and the high 32), which removes the correlation between them
// that the paper's single 32-bit draw has (Doornik, "An Improved Ziggurat Method", 2005).
#pragma once

#include "base/random_law.hpp"

namespace pipesim {

/// Exp(1).
double ziggurat_exponential(KeyedStream& stream);
/// N(0, 1).
double ziggurat_normal(KeyedStream& stream);

} // namespace pipesim
