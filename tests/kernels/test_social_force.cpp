// Unit tests for crowd/kernels/social_force.hpp against Helbing, Farkas and Vicsek's forces,
// worked by hand with their published values (A 2000 N, B 0.08 m, k 1.2e5 kg/s^2, kappa 2.4e5
// kg/(m s), m 80 kg, tau 0.5 s) and the semi-implicit step v' = v + a dt.
#include <cmath>

#include <gtest/gtest.h>

#include "crowd/kernels/social_force.hpp"
#include "kernels/model_scene.hpp"
#include "vec_near.hpp"

namespace {

using crowd::Vec2;
using crowd::test::near;
using model_test::ModelScene;

Vec2 newVelocity(ModelScene& scene) {
  return crowd::socialForceVelocity(scene.view(), 0, scene.prefVelocity[0]);
}

TEST(KernelSocialForce, TheDriveRelaxesTheVelocityTowardsTheDesiredOne) {
  // At rest, desired 1.34 m/s east: a = 1.34 / 0.5 = 2.68 m/s^2; after 0.1 s, 0.268 m/s.
  ModelScene scene({{0, 0}});
  scene.prefVelocity[0] = Vec2(1.34f, 0);
  EXPECT_TRUE(near(newVelocity(scene), Vec2(0.268f, 0), 1e-6f));
  // Moving at 1 m/s north with the same wish: a = ((1.34, 0) - (0, 1)) / 0.5.
  scene.velocity[0] = Vec2(0, 1);
  EXPECT_TRUE(near(newVelocity(scene), Vec2(0.268f, 0.8f), 1e-6f));
  // The speed is capped at maxSpeed (2 m/s).
  scene.velocity[0] = Vec2(1.99f, 0);
  scene.prefVelocity[0] = Vec2(4, 0);
  EXPECT_TRUE(near(newVelocity(scene), Vec2(2, 0), 1e-6f));
}

TEST(KernelSocialForce, OverlappingBodiesArePushedApartAndDraggedByFriction) {
  // Agent 1 overlaps agent 0 by 0.1 m (centres 0.3 m apart, radii 0.2) and slides past at 1 m/s
  // north. On agent 0: A exp(0.1 / B) + k 0.1 = 6980.6 + 12000 N away from agent 1 (-x), and
  // friction kappa 0.1 * 1 = 24000 N along agent 1's motion (+y). dt 1 ms, no wish.
  ModelScene scene({{0, 0}, {0.3f, 0}});
  scene.velocity[1] = Vec2(0, 1);
  scene.timeStep = 0.001f;
  const double normal = 2000.0 * std::exp(0.1 / 0.08) + 120000.0 * 0.1;
  const Vec2 v = newVelocity(scene);
  EXPECT_NEAR(v.x, -normal / 80.0 * 0.001, 2e-6);
  EXPECT_NEAR(v.y, 24000.0 / 80.0 * 0.001, 2e-6);
}

TEST(KernelSocialForce, BodiesApartFeelOnlyTheExponentialRepulsion) {
  // 1 m apart: 2000 exp((0.4 - 1) / 0.08) = 1.106 N, no contact, no friction even when sliding.
  ModelScene scene({{0, 0}, {1, 0}});
  scene.velocity[1] = Vec2(0, 1);
  scene.timeStep = 1.0f;
  const Vec2 v = newVelocity(scene);
  EXPECT_NEAR(v.x, -2000.0 * std::exp(-7.5) / 80.0, 1e-6);
  EXPECT_EQ(v.y, 0.0f);
}

}  // namespace
