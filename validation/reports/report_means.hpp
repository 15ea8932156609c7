// The report's mean period per mapper: one curve per mapper and family (the swept values other than the x axis),
// each point the mean over the seeds of the ok rows at one x (docs/reports.md, "Mean period per mapper").
#pragma once

#include "validation/reports/report_data.hpp"

#include <optional>
#include <string>
#include <vector>

namespace pipesim {

/// The mean periods of one curve at one x value, over the ok rows of that mapper and family.
struct MapperMean {
  std::string mapper;
  /// The family in full, "KEY=VALUE" for each key that splits the curves (swept order, blank-separated); empty when
  /// one curve per mapper.
  std::string family;
  /// The family for a person: "p = 10, class = fully-heterogeneous", only the keys needed to tell the families of a
  /// mapper apart, each by the last part of its name unless two shown keys share it.
  std::string family_title;
  std::optional<int> p; // the processor count of the cell's rows when they all give the same one
  double x = 0;
  int runs = 0;
  std::optional<double> analytic; // mean analytic_period over the rows that have one
  std::optional<double> simulated;
  /// "br07.h1" or "hedpm, p = 10": the curve's title.
  std::string title() const { return family_title.empty() ? mapper : mapper + ", " + family_title; }
  /// Whether two means belong to the same curve.
  bool same_curve(const MapperMean& other) const { return mapper == other.mapper && family == other.family; }
};

/// Contract.
/// - Rows: the ok rows whose x_key is a number (param_number).
/// - Families: the swept keys other than x_key, `mapper` and `seed` (the run seed, averaged over) that take two values
///   or more among the rows of one mapper split its curve; a key that never varies within a mapper (one zipped with
///   the mapper, such as an explicit mapping per mapper) splits nothing. A swept key whose value a row lacks counts
///   as the value "null". When rows of different processor counts (CampaignRow::p) still share a cell, that count
///   splits the curves too, as the key "p".
/// - Order: mappers by first appearance, then families by first appearance among the mapper's rows, then x
///   increasing. Every mean is a plain average: no curve mixes rows of two families.
std::vector<MapperMean> mapper_means(const CampaignResults& results, const std::string& x_key);

} // namespace pipesim
