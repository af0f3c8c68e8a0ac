// Counter-based random numbers: a pure function of (seed, agent, step, stream), spread evenly,
// and floats in [-1, 1) made exactly.
#include <cmath>
#include <set>

#include <gtest/gtest.h>

#include <crowd/kernels/counter_random.hpp>

namespace crowd {
namespace {

TEST(KernelCounterRandom, SameCounterSameBitsOtherCountersOtherBits) {
  EXPECT_EQ(counterRandom(1, 5, 7, 1), counterRandom(1, 5, 7, 1));
  std::set<std::uint64_t> seen;
  for (std::uint64_t seed = 0; seed < 4; ++seed) {
    for (std::uint32_t agent = 0; agent < 50; ++agent) {
      for (std::int64_t step = 0; step < 50; ++step) {
        for (std::uint32_t stream = 0; stream < 2; ++stream)
          seen.insert(counterRandom(seed, agent, step, stream));
      }
    }
  }
  EXPECT_EQ(seen.size(), 4u * 50u * 50u * 2u);  // No two counters collide.
}

TEST(KernelCounterRandom, SignedUnitIsExactAndUniform) {
  EXPECT_EQ(signedUnit(0), -1.0f);
  EXPECT_EQ(signedUnit(~std::uint64_t{0}), 1.0f - 1.0f / 8388608.0f);
  EXPECT_EQ(signedUnit(std::uint64_t{1} << 63), 0.0f);
  // Over many counters: mean near 0, a quarter of the draws in each quarter of [-1, 1).
  double sum = 0;
  int quarters[4] = {};
  const int draws = 200000;
  for (int i = 0; i < draws; ++i) {
    const float u = signedUnit(counterRandom(9, static_cast<std::uint32_t>(i % 1000), i / 1000, 1));
    ASSERT_GE(u, -1.0f);
    ASSERT_LT(u, 1.0f);
    sum += u;
    ++quarters[static_cast<int>(std::floor((u + 1.0f) * 2.0f))];
  }
  EXPECT_NEAR(sum / draws, 0.0, 0.01);
  for (int q : quarters) EXPECT_NEAR(q, draws / 4, draws / 100);
}

}  // namespace
}  // namespace crowd
