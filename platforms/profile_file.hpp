// Profiles in SimGrid's file format (the speed_file, bandwidth_file, latency_file and state_file of an XML platform):
// reading with file:line errors, writing, and the rules every profile obeys whatever its source.
#pragma once

#include "platforms/profile.hpp"

#include <optional>
#include <string>

namespace pipesim {

/// What is wrong with value `value` of a `kind` profile, or nullopt. Values are ratios of the nominal value (pipesim's
/// YAML) or SimGrid's absolute values (files); either way a speed and a bandwidth must be finite and > 0 (SimGrid
/// 3.32 never finishes an operation at rate 0), a latency finite and >= 0, a state finite and >= 0 (0: off, > 0: on).
std::optional<std::string> profile_value_problem(ProfileKind kind, double value);
/// What is wrong with date `date` following `previous` (nullopt for the first point), or nullopt: dates are finite,
/// >= 0 and strictly increasing.
std::optional<std::string> profile_date_problem(double date, std::optional<double> previous);
/// What is wrong with repeating `profile` every `period` seconds, or nullopt: the repetitions must not overlap
/// (period > last date - first date, so that point 0 of a repetition comes after the last point of the previous one).
std::optional<std::string> profile_period_problem(const Profile& profile, double period);

/// Reads SimGrid 3.32's deterministic profile format: lines `DATE VALUE` (absolute dates, increasing), `LOOPAFTER D`
/// (repeat the points D seconds after the last one: period = last date + D) or `PERIODICITY P` (period P), comments
/// (`#`, `%`) and blank lines. Stochastic profiles (`STOCHASTIC`, laws DET, NORM, UNIF, EXP) are refused: their dates
/// are not known beforehand. Errors are InputError "FILE:LINE: ..." naming the line's text and what was expected.
Profile parse_profile_text(const std::string& text, const std::string& file, ProfileKind kind);
/// The same from a file (InputError naming it when it cannot be read); Profile::source is the path.
Profile read_profile_file(const std::string& path, ProfileKind kind);
/// SimGrid's format for `profile`: one `DATE VALUE` line per point (17 significant digits, so it reads back
/// exactly), then `PERIODICITY P` when it repeats.
std::string profile_text(const Profile& profile);

} // namespace pipesim
