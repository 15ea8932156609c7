// Numbers with SimGrid-style units ("100MBps", "1Gbps", "2h", "5ms") for host properties of platform files.
#pragma once

#include <optional>
#include <string>

namespace pipesim {

/// Bytes/s: a plain number, or a number followed by [k|M|G|T|P|E|Ki|Mi|Gi|Ti|Pi|Ei](Bps|bps) (bps = bits/s).
/// "inf" is accepted (unbounded). nullopt when the text is not of that form.
std::optional<double> parse_bandwidth_text(const std::string& text);

/// Seconds: a plain number, or a number followed by ps, ns, us, ms, s, m (minutes), h, d or w. "inf" is accepted.
std::optional<double> parse_duration_text(const std::string& text);

/// A plain number (the whole text, no unit), or nullopt.
std::optional<double> parse_number_text(const std::string& text);

} // namespace pipesim
