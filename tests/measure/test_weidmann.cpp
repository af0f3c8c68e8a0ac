// The reference curve measured speeds are compared with (crowd/measurement.hpp: weidmannSpeed).
#include <gtest/gtest.h>

#include <crowd/measurement.hpp>

namespace crowd {
namespace {

// Weidmann's diagram at the densities the RiMEA tables list (1.30, 1.06, 0.61, 0.33, 0.16 m/s at
// 0.5, 1, 2, 3, 4 P/m^2), its free speed and its standstill.
TEST(Weidmann, SpeedFollowsThePublishedTable) {
  EXPECT_DOUBLE_EQ(weidmannSpeed(0.0), 1.34);
  EXPECT_DOUBLE_EQ(weidmannSpeed(5.4), 0.0);
  EXPECT_DOUBLE_EQ(weidmannSpeed(7.0), 0.0);
  const double density[] = {0.5, 1.0, 2.0, 3.0, 4.0};
  const double published[] = {1.30, 1.06, 0.61, 0.33, 0.16};
  for (int i = 0; i < 5; ++i) EXPECT_NEAR(weidmannSpeed(density[i]), published[i], 0.01) << density[i];
}

}  // namespace
}  // namespace crowd
