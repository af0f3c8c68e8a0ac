// Per-agent draws (crowd/distribution.hpp): each kind's range and moments over many agents, the
// same value for the same (seed, agent, stream) whatever else was drawn, rounding to a quantum,
// Weidmann's speeds by age, and the refusals.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include <crowd/distribution.hpp>

namespace crowd {
namespace {

struct Moments {
  double mean = 0, sd = 0, lo = 1e300, hi = -1e300;
};

Moments momentsOf(const ValueDistribution& d, int count, std::uint32_t stream = 0) {
  std::vector<double> v;
  for (int i = 0; i < count; ++i) v.push_back(d.draw(7, static_cast<std::uint64_t>(i), stream));
  Moments m;
  for (const double x : v) {
    m.mean += x / count;
    m.lo = std::min(m.lo, x);
    m.hi = std::max(m.hi, x);
  }
  for (const double x : v) m.sd += (x - m.mean) * (x - m.mean) / (count - 1);
  m.sd = std::sqrt(m.sd);
  return m;
}

TEST(Distribution, UniformAndNormalHaveTheirMomentsAndRanges) {
  const Moments u = momentsOf(ValueDistribution{ValueDistribution::Kind::Uniform, 10, 100}, 20000);
  EXPECT_NEAR(u.mean, 55.0, 0.6);
  EXPECT_NEAR(u.sd, 90.0 / std::sqrt(12.0), 0.5);
  EXPECT_GE(u.lo, 10.0);
  EXPECT_LE(u.hi, 100.0);
  ValueDistribution normal{ValueDistribution::Kind::Normal, 1.34, 0.26};
  normal.min = 0.0;
  normal.max = 10.0;
  const Moments n = momentsOf(normal, 20000);
  EXPECT_NEAR(n.mean, 1.34, 0.006);
  EXPECT_NEAR(n.sd, 0.26, 0.006);
  normal.min = 1.0;  // Clipped where asked.
  normal.max = 1.6;
  const Moments clipped = momentsOf(normal, 20000);
  EXPECT_EQ(clipped.lo, 1.0);
  EXPECT_EQ(clipped.hi, 1.6);
}

TEST(Distribution, DrawsDependOnSeedAgentAndStreamOnly) {
  const ValueDistribution d{ValueDistribution::Kind::Uniform, 0, 1};
  EXPECT_EQ(d.draw(3, 41, 2), d.draw(3, 41, 2));
  EXPECT_NE(d.draw(3, 41, 2), d.draw(3, 41, 3));
  EXPECT_NE(d.draw(3, 41, 2), d.draw(4, 41, 2));
  EXPECT_NE(d.draw(3, 41, 2), d.draw(3, 42, 2));
  EXPECT_EQ(ValueDistribution::constant(2.5).draw(1, 2, 3), 2.5);
}

TEST(Distribution, AQuantumRoundsTheDraws) {
  ValueDistribution d{ValueDistribution::Kind::Uniform, 0.8, 1.8};
  d.quantum = 0.05;
  for (int i = 0; i < 200; ++i) {
    const double x = d.draw(1, static_cast<std::uint64_t>(i), 0);
    EXPECT_NEAR(x / 0.05, std::round(x / 0.05), 1e-9) << x;
  }
}

TEST(Distribution, WeidmannSpeedByAge) {
  EXPECT_DOUBLE_EQ(weidmannSpeedAtAge(20), 1.60);
  EXPECT_DOUBLE_EQ(weidmannSpeedAtAge(25), 1.565);
  EXPECT_DOUBLE_EQ(weidmannSpeedAtAge(80), 0.70);
  EXPECT_DOUBLE_EQ(weidmannSpeedAtAge(1), 0.56);  // Below the table: its first value.
  const ValueDistribution adults{ValueDistribution::Kind::WeidmannAge, 20, 50};
  EXPECT_DOUBLE_EQ(adults.lowest(), 1.41);
  EXPECT_DOUBLE_EQ(adults.highest(), 1.60);
  const Moments m = momentsOf(adults, 5000);
  EXPECT_GE(m.lo, 1.41);
  EXPECT_LE(m.hi, 1.60);
  // Older people walk slower: the mean of 60 to 80 is below the mean of 20 to 40.
  EXPECT_LT(momentsOf(ValueDistribution{ValueDistribution::Kind::WeidmannAge, 60, 80}, 5000).mean, m.mean);
}

TEST(Distribution, BadDistributionsAreRefused) {
  EXPECT_EQ(distributionProblem(ValueDistribution{ValueDistribution::Kind::Uniform, 1, 2}), "");
  EXPECT_NE(
      distributionProblem(ValueDistribution{ValueDistribution::Kind::Uniform, 2, 1}).find("low <= high"),
      std::string::npos);
  EXPECT_NE(distributionProblem(ValueDistribution{ValueDistribution::Kind::Normal, 1, -1}).find("deviation"),
            std::string::npos);
  EXPECT_NE(distributionProblem(ValueDistribution{ValueDistribution::Kind::Normal, 1, 0.1}).find("\"min\""),
            std::string::npos);
  EXPECT_NE(
      distributionProblem(ValueDistribution{ValueDistribution::Kind::WeidmannAge, 1, 90}).find("3 to 85"),
      std::string::npos);
  EXPECT_NE(distributionProblem(ValueDistribution{ValueDistribution::Kind::Uniform, NAN, 1}).find("finite"),
            std::string::npos);
}

}  // namespace
}  // namespace crowd
