// Unit tests for crowd/kernels/steer_separation.hpp: each listed neighbour within the radius
// pushes away by speed / distance, so nearer neighbours push more; others push not at all.
#include <cmath>
#include <vector>

#include <gtest/gtest.h>

#include "crowd/kernels/steer_separation.hpp"

namespace {

using crowd::Vec2;

// Agent 0's neighbour list, as the neighbour phase leaves it (rows of 8).
struct Neighbours {
  std::vector<int> slots = std::vector<int>(8, -1);
  std::vector<int> count = {0};

  explicit Neighbours(const std::vector<int>& list) {
    for (std::size_t m = 0; m < list.size(); ++m) slots[m] = list[m];
    count[0] = static_cast<int>(list.size());
  }
  crowd::NeighbourTable table() { return crowd::NeighbourTable{slots.data(), count.data(), 8, 1}; }
};

TEST(KernelSteerSeparation, NearerNeighboursPushHarder) {
  // Agent 0 at the origin; 1 at distance 1 east, 2 at distance 2 south. Speed 2: agent 1 pushes
  // 2 / 1 = 2 west, agent 2 pushes 2 / 2 = 1 north.
  const std::vector<Vec2> positions{{0, 0}, {1, 0}, {0, -2}};
  Neighbours n({1, 2});
  const Vec2 f = crowd::separationForce(n.table(), positions.data(), 0, 4.0f, 2.0f);
  EXPECT_FLOAT_EQ(f.x, -2.0f);
  EXPECT_FLOAT_EQ(f.y, 1.0f);
  // Each alone: the nearer pushes twice as hard.
  Neighbours one({1});
  Neighbours two({2});
  EXPECT_FLOAT_EQ(crowd::length(crowd::separationForce(one.table(), positions.data(), 0, 4.0f, 2.0f)), 2.0f);
  EXPECT_FLOAT_EQ(crowd::length(crowd::separationForce(two.table(), positions.data(), 0, 4.0f, 2.0f)), 1.0f);
}

TEST(KernelSteerSeparation, SymmetricNeighboursCancel) {
  const std::vector<Vec2> positions{{0, 0}, {1.5f, 0}, {-1.5f, 0}, {0, 1.5f}, {0, -1.5f}};
  Neighbours n({1, 2, 3, 4});
  EXPECT_EQ(crowd::separationForce(n.table(), positions.data(), 0, 4.0f, 1.0f), Vec2(0, 0));
}

TEST(KernelSteerSeparation, NeighboursOutsideTheRadiusOrOnTopOrUnlistedDoNotPush) {
  // Agent 1 at distance 5 (radius 4), agent 2 exactly at the radius, agent 3 on the same spot
  // (no direction to push), agent 4 near but not in the list.
  const std::vector<Vec2> positions{{0, 0}, {5, 0}, {0, 4}, {0, 0}, {0.5f, 0}};
  Neighbours n({1, 2, 3});
  EXPECT_EQ(crowd::separationForce(n.table(), positions.data(), 0, 4.0f, 1.0f), Vec2(0, 0));
  Neighbours none({});
  EXPECT_EQ(crowd::separationForce(none.table(), positions.data(), 0, 4.0f, 1.0f), Vec2(0, 0));
}

}  // namespace
