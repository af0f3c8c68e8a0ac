// Unit tests for crowd/kernels/portable_exp.hpp: within 2 ulp of the true exponential (taken in
// double) across the float range the models use, exact at 0, and the edges (underflow to 0,
// overflow to infinity, NaN through).
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <limits>

#include <gtest/gtest.h>

#include "crowd/kernels/portable_exp.hpp"

namespace {

/// How many floats lie between a and b.
long long ulpDistance(float a, float b) {
  const auto ordered = [](float f) {
    int bits;
    std::memcpy(&bits, &f, sizeof bits);
    return bits < 0 ? static_cast<long long>(0x80000000LL) - bits : static_cast<long long>(bits);
  };
  return std::llabs(ordered(a) - ordered(b));
}

TEST(KernelPortableExp, WithinTwoUlpOfTheTrueValue) {
  long long worst = 0;
  for (float x = -87.0f; x <= 88.0f; x += 0.00731f) {
    const float truth = static_cast<float>(std::exp(static_cast<double>(x)));
    worst = std::max(worst, ulpDistance(crowd::portableExp(x), truth));
  }
  EXPECT_LE(worst, 2);
  EXPECT_EQ(crowd::portableExp(0.0f), 1.0f);
  EXPECT_NEAR(crowd::portableExp(1.0f), 2.7182818f, 3e-7f);
  EXPECT_NEAR(crowd::portableExp(-1.0f), 0.36787944f, 1e-7f);
}

TEST(KernelPortableExp, EdgesUnderflowOverflowAndNaN) {
  EXPECT_EQ(crowd::portableExp(-100.0f), 0.0f);
  EXPECT_EQ(crowd::portableExp(-std::numeric_limits<float>::infinity()), 0.0f);
  EXPECT_EQ(crowd::portableExp(100.0f), std::numeric_limits<float>::infinity());
  EXPECT_TRUE(std::isnan(crowd::portableExp(std::numeric_limits<float>::quiet_NaN())));
  EXPECT_TRUE(std::isfinite(crowd::portableExp(88.5f)));
}

}  // namespace
