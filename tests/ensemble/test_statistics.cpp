// The ensemble summary's statistics against figures worked out by hand.
#include <cmath>
#include <optional>
#include <stdexcept>
#include <vector>

#include <gtest/gtest.h>

#include "ensemble/statistics.hpp"

namespace {

using namespace crowd::cli;

TEST(EnsembleStatistics, EightFiguresByHand) {
  // Sorted 2 4 4 4 5 5 7 9: mean 40 / 8 = 5; squared deviations 9+1+1+1+0+0+4+16 = 32 over 7.
  // Quantile q sits at q * 7 between the sorted figures: p5 at 0.35 (2 + 0.35 * 2), p50 at 3.5
  // (between 4 and 5), p95 at 6.65 (7 + 0.65 * 2).
  const std::vector<double> figures{5, 9, 4, 2, 4, 7, 4, 5};
  const std::optional<ColumnStatistics> s = columnStatistics(figures);
  ASSERT_TRUE(s);
  EXPECT_EQ(s->count, 8u);
  EXPECT_DOUBLE_EQ(s->mean, 5.0);
  EXPECT_DOUBLE_EQ(s->standardDeviation, std::sqrt(32.0 / 7.0));
  EXPECT_DOUBLE_EQ(s->min, 2.0);
  EXPECT_DOUBLE_EQ(s->max, 9.0);
  EXPECT_NEAR(s->p5, 2.7, 1e-12);
  EXPECT_DOUBLE_EQ(s->p50, 4.5);
  EXPECT_NEAR(s->p95, 8.3, 1e-12);
}

TEST(EnsembleStatistics, OneFigureHasNoSpread) {
  const std::vector<double> figures{3.25};
  const std::optional<ColumnStatistics> s = columnStatistics(figures);
  ASSERT_TRUE(s);
  EXPECT_EQ(s->standardDeviation, 0.0);
  EXPECT_EQ(s->p5, 3.25);
  EXPECT_EQ(s->p95, 3.25);
}

TEST(EnsembleStatistics, NoFiguresNoStatistics) {
  EXPECT_FALSE(columnStatistics(std::vector<double>{}));
}

TEST(EnsembleStatistics, QuantileEnds) {
  const std::vector<double> figures{1, 3};
  EXPECT_EQ(quantile(figures, 0.0), 1.0);
  EXPECT_EQ(quantile(figures, 1.0), 3.0);
  EXPECT_EQ(quantile(figures, 0.25), 1.5);
  EXPECT_THROW(quantile(figures, 1.5), std::invalid_argument);
  EXPECT_THROW(quantile(std::vector<double>{}, 0.5), std::invalid_argument);
}

TEST(StableMean, SettlesWhereTheRunningMeanStaysInTheBand) {
  // Running means 10, 15, 14, 13, 12.6, 12.333...; the final mean 12.333...
  const std::vector<double> figures{10, 20, 12, 10, 11, 11};
  // 5%: a band of 0.6167; run 4's mean (13) is 0.667 off, run 5's (12.6) 0.267.
  EXPECT_EQ(runsForStableMean(figures, 0.05), 5u);
  // 10%: a band of 1.233; run 3's mean (14) is 1.667 off, run 4's within.
  EXPECT_EQ(runsForStableMean(figures, 0.10), 4u);
  // No tolerance: only the last run's mean is the final one.
  EXPECT_EQ(runsForStableMean(figures, 0.0), 6u);
}

TEST(StableMean, AnEarlyVisitToTheBandDoesNotCount) {
  // Running means 12, 10, 12, 12: run 1 is within 1% of 12 but run 2 leaves the band again.
  const std::vector<double> figures{12, 8, 16, 12};
  EXPECT_EQ(runsForStableMean(figures, 0.01), 3u);
}

TEST(StableMean, ZeroMeanNeedsExactZeros) {
  // Running means 1, 0, 0.
  EXPECT_EQ(runsForStableMean(std::vector<double>{1, -1, 0}, 0.01), 2u);
}

TEST(StableMean, NoFiguresAndBadTolerance) {
  EXPECT_FALSE(runsForStableMean(std::vector<double>{}, 0.01));
  EXPECT_THROW(runsForStableMean(std::vector<double>{1}, -0.1), std::invalid_argument);
  EXPECT_THROW(runsForStableMean(std::vector<double>{1}, NAN), std::invalid_argument);
}

}  // namespace
