// What an ensemble's summary says of one column of figures (one per successful run): where they
// lie and how widely, and after how many runs their mean stopped moving.
#pragma once

#include <cstddef>
#include <optional>
#include <span>

namespace crowd::cli {

/// One column over the runs that have a figure in it.
struct ColumnStatistics {
  std::size_t count = 0;
  double mean = 0;
  /// The sample standard deviation (divided by count - 1); 0 for a single figure.
  double standardDeviation = 0;
  double min = 0;
  double p5 = 0;
  double p50 = 0;
  double p95 = 0;
  double max = 0;
};

/// The q-th quantile (q in [0, 1]) of `values`, interpolating linearly between the two order
/// statistics around position q (n - 1) of the sorted figures: the rule R and NumPy use by
/// default, so that their results can be set beside these. Throws std::invalid_argument for no
/// values or q outside [0, 1].
double quantile(std::span<const double> values, double q);

/// The statistics of `values` (in any order); none for no values.
std::optional<ColumnStatistics> columnStatistics(std::span<const double> values);

/// Runs for a stable mean: the smallest n such that the mean of the first k figures (in run
/// order) lies within `tolerance` (relative: 0.01 is 1%) of the mean of all of them for every k
/// from n on. Equal to the count when only the last run brings the mean within reach, and so a
/// sign that more runs are needed; none for no values. Where the final mean is 0 every running
/// mean must be 0 too. Throws std::invalid_argument for a negative or non-finite tolerance.
std::optional<std::size_t> runsForStableMean(std::span<const double> valuesInRunOrder, double tolerance);

}  // namespace crowd::cli
