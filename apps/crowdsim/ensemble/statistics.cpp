// Summary statistics of an ensemble's columns (statistics.hpp).
#include "ensemble/statistics.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <vector>

namespace crowd::cli {
namespace {

double quantileOfSorted(const std::vector<double>& sorted, double q) {
  const double position = q * static_cast<double>(sorted.size() - 1);
  const auto below = static_cast<std::size_t>(std::floor(position));
  const std::size_t above = std::min(below + 1, sorted.size() - 1);
  const double share = position - static_cast<double>(below);
  return sorted[below] + share * (sorted[above] - sorted[below]);
}

}  // namespace

double quantile(std::span<const double> values, double q) {
  if (values.empty()) throw std::invalid_argument("a quantile of no values");
  if (!(q >= 0.0 && q <= 1.0)) throw std::invalid_argument("a quantile outside 0 to 1");
  std::vector<double> sorted(values.begin(), values.end());
  std::sort(sorted.begin(), sorted.end());
  return quantileOfSorted(sorted, q);
}

std::optional<ColumnStatistics> columnStatistics(std::span<const double> values) {
  if (values.empty()) return std::nullopt;
  std::vector<double> sorted(values.begin(), values.end());
  std::sort(sorted.begin(), sorted.end());
  ColumnStatistics s;
  s.count = sorted.size();
  // Summed in sorted order, so that the figures' order (which rank finished first) cannot
  // change the last bit.
  double sum = 0;
  for (const double v : sorted) sum += v;
  s.mean = sum / static_cast<double>(s.count);
  if (s.count > 1) {
    double squares = 0;
    for (const double v : sorted) squares += (v - s.mean) * (v - s.mean);
    s.standardDeviation = std::sqrt(squares / static_cast<double>(s.count - 1));
  }
  s.min = sorted.front();
  s.max = sorted.back();
  s.p5 = quantileOfSorted(sorted, 0.05);
  s.p50 = quantileOfSorted(sorted, 0.50);
  s.p95 = quantileOfSorted(sorted, 0.95);
  return s;
}

std::optional<std::size_t> runsForStableMean(std::span<const double> valuesInRunOrder, double tolerance) {
  if (!(tolerance >= 0.0) || !std::isfinite(tolerance)) {
    throw std::invalid_argument("the tolerance of a stable mean must be a finite number of at least 0");
  }
  const std::size_t n = valuesInRunOrder.size();
  if (n == 0) return std::nullopt;
  std::vector<double> running(n);
  double sum = 0;
  for (std::size_t k = 0; k < n; ++k) {
    sum += valuesInRunOrder[k];
    running[k] = sum / static_cast<double>(k + 1);
  }
  const double final = running[n - 1];
  const double band = tolerance * std::abs(final);
  // From the last run backwards: the first running mean outside the band ends the stable tail.
  std::size_t stableFrom = n;
  for (std::size_t k = n; k-- > 0;) {
    if (std::abs(running[k] - final) > band) break;
    stableFrom = k + 1;
  }
  return stableFrom;
}

}  // namespace crowd::cli
