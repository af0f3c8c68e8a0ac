// Unit tests for crowd/kernels/collision_free_speed.hpp against the model's definition (Tordeux,
// Chraibi and Seyfried 2016), worked by hand: the speed is the headway to the nearest body ahead,
// less the contact distance, over the time gap, capped by the desired speed; the direction is
// the desired one pushed away from neighbours, exp((l - s) / D) apiece.
#include <cmath>

#include <gtest/gtest.h>

#include "crowd/kernels/collision_free_speed.hpp"
#include "kernels/model_scene.hpp"
#include "vec_near.hpp"

namespace {

using crowd::Vec2;
using crowd::test::near;
using model_test::ModelScene;

Vec2 newVelocity(ModelScene& scene) {
  return crowd::collisionFreeSpeedVelocity(scene.view(), 0, scene.prefVelocity[0]);
}

TEST(KernelCollisionFreeSpeed, AloneAnAgentWalksItsDesiredVelocity) {
  ModelScene scene({{0, 0}});
  scene.prefVelocity[0] = Vec2(1.34f, 0);
  EXPECT_TRUE(near(newVelocity(scene), Vec2(1.34f, 0)));
  scene.prefVelocity[0] = Vec2(0.6f, 0.8f);  // Arrive's slowing sets a lower desired speed.
  EXPECT_TRUE(near(newVelocity(scene), Vec2(0.6f, 0.8f)));
  scene.prefVelocity[0] = Vec2(0, 0);  // No wish: stand, whoever pushes.
  EXPECT_EQ(newVelocity(scene), Vec2(0, 0));
}

TEST(KernelCollisionFreeSpeed, SpeedIsTheHeadwayOverTheTimeGap) {
  // One person 1 m ahead: (1 - 0.4) / 1 s = 0.6 m/s. Its push, 8 exp(-6) = 0.0198, is straight
  // back along the line of motion, so the direction stays +x.
  ModelScene scene({{0, 0}, {1, 0}});
  scene.prefVelocity[0] = Vec2(1.34f, 0);
  EXPECT_TRUE(near(newVelocity(scene), Vec2(0.6f, 0), 1e-6f));
  scene.steering.model.timeGap = 0.5f;  // Half the gap: twice the speed, 1.2 m/s.
  EXPECT_TRUE(near(newVelocity(scene), Vec2(1.2f, 0), 1e-6f));
  scene.position[1] = Vec2(3, 0);  // Far ahead: the desired speed caps it.
  EXPECT_TRUE(near(newVelocity(scene), Vec2(1.34f, 0), 1e-6f));
}

TEST(KernelCollisionFreeSpeed, BodiesInContactOrOverlappingAheadStopIt) {
  ModelScene scene({{0, 0}, {0.4f, 0}});
  scene.prefVelocity[0] = Vec2(1.34f, 0);
  // Touching: the direction turns back (the push, 8, outweighs the wish, 1), and the one ahead
  // is then behind: the agent steps back at its desired speed. Nobody walks into anybody.
  const Vec2 touching = newVelocity(scene);
  EXPECT_LT(touching.x, 0.0f);
  scene.position[1] = Vec2(0.3f, 0.05f);  // Overlapping, a little to the side.
  EXPECT_LE(newVelocity(scene).x, 0.0f);
}

TEST(KernelCollisionFreeSpeed, OnlyBodiesAheadAndInTheWaySlowIt) {
  // Behind: no slowing, and its push (8 exp(-6)) only adds to the wish.
  ModelScene behind({{0, 0}, {-1, 0}});
  behind.prefVelocity[0] = Vec2(1.34f, 0);
  EXPECT_TRUE(near(newVelocity(behind), Vec2(1.34f, 0), 1e-6f));
  // Ahead but 0.5 m to the side, beyond the contact distance 0.4: not in the way, so full speed;
  // its push, 8 exp(-1) = 2.943 at (1.5, 0.5)'s bearing, turns the direction away from it.
  ModelScene aside({{0, 0}, {1.5f, 0.5f}});
  aside.prefVelocity[0] = Vec2(1.34f, 0);
  const double push = 8.0 * std::exp((0.4 - std::sqrt(2.5)) / 0.1);
  const double dx = 1.0 - push * 1.5 / std::sqrt(2.5), dy = -push * 0.5 / std::sqrt(2.5);
  const double norm = std::hypot(dx, dy);
  EXPECT_TRUE(near(newVelocity(aside),
                   Vec2(static_cast<float>(1.34 * dx / norm), static_cast<float>(1.34 * dy / norm)), 2e-6f));
  // Ahead and 0.3 m to the side, within the contact distance: its headway slows the agent.
  ModelScene inTheWay({{0, 0}, {1, 0.3f}});
  inTheWay.prefVelocity[0] = Vec2(1.34f, 0);
  const Vec2 v = newVelocity(inTheWay);
  EXPECT_NEAR(crowd::length(v), std::sqrt(1.09f) - 0.4f, 1e-3f);
}

}  // namespace
