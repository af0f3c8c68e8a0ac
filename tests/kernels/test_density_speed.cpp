// Unit tests for crowd/kernels/density_speed.hpp: Weidmann's diagram as he published it
// (1.34 m/s free speed; the tabulated speeds at 1, 2, 3, 4 and 5 P/m^2; standstill from 5.4),
// the local density as people within the radius over the disc's area, and the preferred
// velocity scaled by the diagram.
#include <cmath>

#include <gtest/gtest.h>

#include "crowd/kernels/density_speed.hpp"
#include "kernels/model_scene.hpp"
#include "vec_near.hpp"

namespace {

using crowd::Vec2;
using model_test::ModelScene;

TEST(KernelDensitySpeed, WeidmannsDiagram) {
  const auto speed = [](float density) { return 1.34f * crowd::weidmannSpeedFraction(density); };
  EXPECT_NEAR(speed(1.0f), 1.058f, 1e-3f);
  EXPECT_NEAR(speed(2.0f), 0.606f, 1e-3f);
  EXPECT_NEAR(speed(3.0f), 0.331f, 1e-3f);
  EXPECT_NEAR(speed(4.0f), 0.156f, 1e-3f);
  EXPECT_NEAR(speed(5.0f), 0.037f, 1e-3f);
  EXPECT_EQ(speed(5.4f), 0.0f);
  EXPECT_EQ(speed(8.0f), 0.0f);
  EXPECT_NEAR(speed(0.1f), 1.34f, 1e-6f);
  EXPECT_EQ(speed(0.0f), 1.34f);
}

TEST(KernelDensitySpeed, LocalDensityCountsThoseWithinTheRadius) {
  // Three within 1 m (one on the circle), two beyond: 3 people on pi m^2 (the agent itself is
  // not counted: see localDensity).
  ModelScene scene({{0, 0}, {0.5f, 0}, {0, -0.7f}, {1, 0}, {1.2f, 0}, {0, 3}});
  const crowd::StepView view = scene.view();
  EXPECT_FLOAT_EQ(crowd::localDensity(view, 0, 1.0f), 3.0f / 3.14159265f);
  EXPECT_FLOAT_EQ(crowd::localDensity(view, 5, 1.0f), 0.0f);  // Alone.
  // Scaled preferred velocity: Weidmann's fraction at that density.
  scene.prefVelocity[0] = Vec2(1.34f, 0);
  const Vec2 slowed = crowd::densitySlowedVelocity(scene.view(), 0, 1.0f, scene.prefVelocity[0]);
  EXPECT_FLOAT_EQ(slowed.x, 1.34f * crowd::weidmannSpeedFraction(3.0f / 3.14159265f));
  EXPECT_NEAR(slowed.x, 1.082f, 1e-3f);  // 0.95 P/m^2 slows Weidmann's walkers to 1.082 m/s.
  // Alone, the full preferred velocity.
  scene.prefVelocity[5] = Vec2(0, 1.34f);
  EXPECT_EQ(crowd::densitySlowedVelocity(scene.view(), 5, 1.0f, scene.prefVelocity[5]), Vec2(0, 1.34f));
}

}  // namespace
