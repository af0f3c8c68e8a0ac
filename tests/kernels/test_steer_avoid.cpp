// Unit tests for crowd/kernels/steer_avoid.hpp, Buckland's detection box: in the box's frame
// (x ahead, y to the left) an obstacle on the left pushes right and one on the right pushes left,
// harder the closer it is; obstacles behind the box, beside it or beyond its length give nothing;
// the braking part is a fifth of the lateral push, so it too grows as an obstacle nears; an edge
// pushes along its outward normal. Then the same in world coordinates through avoidForce and the
// obstacle grid. Expectations are hand-worked.
#include <cmath>
#include <vector>

#include <gtest/gtest.h>

#include <crowd/obstacles.hpp>

#include "crowd/kernels/steer_avoid.hpp"
#include "geometry/obstacle_index.hpp"
#include "vec_near.hpp"

namespace {

using crowd::BoxHit;
using crowd::CircleObstacle;
using crowd::DetectionBox;
using crowd::Vec2;

testing::AssertionResult near(Vec2 actual, Vec2 expected, float tolerance = 1e-5f) {
  return crowd::test::near(actual, expected, tolerance);
}

// At the origin heading +x, 10 long, half width 1: local and world frames coincide.
const DetectionBox kBox{Vec2(0, 0), Vec2(1, 0), 10.0f, 1.0f};

bool noHit(const BoxHit& hit) {
  return hit.distance == INFINITY && hit.force == Vec2(0, 0);
}

TEST(KernelSteerAvoid, BoxFrameHasXAheadAndYToTheLeft) {
  const DetectionBox north{Vec2(1, 1), Vec2(0, 1), 10.0f, 1.0f};
  EXPECT_EQ(north.toLocal(Vec2(1, 6)), Vec2(5, 0));   // 5 ahead.
  EXPECT_EQ(north.toLocal(Vec2(0, 1)), Vec2(0, 1));   // West of a northbound agent: its left.
  EXPECT_EQ(north.toLocal(Vec2(3, 1)), Vec2(0, -2));  // East: its right.
  EXPECT_EQ(north.toWorld(Vec2(0, -1)), Vec2(1, 0));  // Local right is world east.
}

TEST(KernelSteerAvoid, CircleOnTheLeftPushesRightAndOnTheRightPushesLeft) {
  // Centre 5 ahead, 1 to the left, radius 1: widened by the half width the circle reaches 2 from
  // its centre. Lateral (2 - 1) * (1 + (10 - 5) / 10) = 1.5 to the right; braking 0.2 * 1.5;
  // the centre line enters the widened circle at 5 - sqrt(4 - 1).
  const BoxHit left = crowd::circleInBox(kBox, CircleObstacle{Vec2(5, 1), 1.0f});
  EXPECT_TRUE(near(left.force, Vec2(-0.3f, -1.5f)));
  EXPECT_NEAR(left.distance, 5.0f - std::sqrt(3.0f), 1e-5f);
  const BoxHit right = crowd::circleInBox(kBox, CircleObstacle{Vec2(5, -1), 1.0f});
  EXPECT_TRUE(near(right.force, Vec2(-0.3f, 1.5f)));
  EXPECT_NEAR(right.distance, left.distance, 1e-6f);
  // Dead ahead: passed on the right, with the whole reach 2 * 1.5 = 3.
  const BoxHit ahead = crowd::circleInBox(kBox, CircleObstacle{Vec2(5, 0), 1.0f});
  EXPECT_TRUE(near(ahead.force, Vec2(-0.6f, -3.0f)));
  // Pushed away from its side, the agent's velocity turns away: the force's lateral part and the
  // obstacle's side have opposite signs (left of the heading: y > 0; pushed right: y < 0).
  EXPECT_LT(left.force.y, 0.0f);
  EXPECT_GT(right.force.y, 0.0f);
  EXPECT_NEAR(ahead.distance, 3.0f, 1e-6f);
}

TEST(KernelSteerAvoid, NearerObstaclesPushHarder) {
  // The same side offset at 8 ahead: multiplier 1.2 instead of 1.5; at 2 ahead, 1.8.
  const BoxHit far = crowd::circleInBox(kBox, CircleObstacle{Vec2(8, 1), 1.0f});
  EXPECT_TRUE(near(far.force, Vec2(-0.24f, -1.2f)));
  const BoxHit nearer = crowd::circleInBox(kBox, CircleObstacle{Vec2(2, 1), 1.0f});
  EXPECT_TRUE(near(nearer.force, Vec2(-0.36f, -1.8f)));
  EXPECT_LT(nearer.force.y, far.force.y);
  EXPECT_LT(nearer.force.x, far.force.x);  // Brakes harder too.
}

TEST(KernelSteerAvoid, PostJustInsideTheFarEndBarelyBrakes) {
  // At 9.5 ahead and 1.9 aside the widened circle overlaps the strip by 0.1: lateral
  // 0.1 * (1 + 0.5 / 10) = 0.105 and braking a fifth of that. (The book's braking,
  // (2 - 9.5) * 0.2 = -1.5, would stop an agent at full weight for a post it only grazes.)
  const BoxHit graze = crowd::circleInBox(kBox, CircleObstacle{Vec2(9.5f, 1.9f), 1.0f});
  EXPECT_TRUE(near(graze.force, Vec2(-0.021f, -0.105f)));
  EXPECT_LT(graze.force.x, 0.0f);  // Braking only ever slows.
}

TEST(KernelSteerAvoid, NoForceForCirclesBehindOrBesideTheBoxOrBeyondIt) {
  // Behind: passed once its centre is a reach (2) behind the agent.
  EXPECT_TRUE(noHit(crowd::circleInBox(kBox, CircleObstacle{Vec2(-2.5f, 0), 1.0f})));
  EXPECT_TRUE(noHit(crowd::circleInBox(kBox, CircleObstacle{Vec2(-2.0f, 0.5f), 1.0f})));
  // Beside: the widened circle only touches the box's side line (|y| = 2), or misses it.
  EXPECT_TRUE(noHit(crowd::circleInBox(kBox, CircleObstacle{Vec2(5, 2), 1.0f})));
  EXPECT_TRUE(noHit(crowd::circleInBox(kBox, CircleObstacle{Vec2(5, -2.5f), 1.0f})));
  EXPECT_TRUE(noHit(crowd::circleInBox(kBox, CircleObstacle{Vec2(0, 3), 1.0f})));
  // Beyond: it begins 10.5 ahead, past the box's 10.
  EXPECT_TRUE(noHit(crowd::circleInBox(kBox, CircleObstacle{Vec2(12.5f, 0), 1.0f})));
  // Just inside the length it counts (beginning at 9.5).
  EXPECT_FALSE(noHit(crowd::circleInBox(kBox, CircleObstacle{Vec2(11.5f, 0), 1.0f})));
}

TEST(KernelSteerAvoid, CircleAtTheFlankStillPushesButNeverSpeedsUp) {
  // Centre 1.5 behind, 0.5 to the left: it overlaps the agent's flank (the documented departure
  // from the book's x >= 0). Lateral (2 - 0.5) * (1 + 10 / 10) = 3 to the right, braking a fifth
  // of that (the book's (2 + 1.5) * 0.2 would push forwards), met at once.
  const BoxHit flank = crowd::circleInBox(kBox, CircleObstacle{Vec2(-1.5f, 0.5f), 1.0f});
  EXPECT_TRUE(near(flank.force, Vec2(-0.6f, -3.0f)));
  EXPECT_EQ(flank.distance, 0.0f);
}

TEST(KernelSteerAvoid, EdgeAcrossTheBoxPushesAlongItsOutwardNormal) {
  // A wall across the box at x = 5 running down (outward normal (-1, 0), facing the agent): a
  // pure braking force, half width 1 times (1 + 5 / 10).
  const BoxHit wall = crowd::edgeInBox(kBox, Vec2(5, 5), Vec2(5, -5), Vec2(-1, 0));
  EXPECT_NEAR(wall.distance, 5.0f, 1e-6f);
  EXPECT_TRUE(near(wall.force, Vec2(-1.5f, 0.0f)));
  // A slanted wall (8, 4) -> (4, -4) meets the box (|y| <= 1) between x = 6.5 and 5.5; its
  // outward normal (-2, 1) / sqrt(5) turns the agent left; multiplier 1 + 4.5 / 10.
  const Vec2 n = Vec2(-2, 1) * (1.0f / std::sqrt(5.0f));
  const BoxHit slant = crowd::edgeInBox(kBox, Vec2(8, 4), Vec2(4, -4), n);
  EXPECT_NEAR(slant.distance, 5.5f, 1e-5f);
  EXPECT_TRUE(near(slant.force, n * 1.45f));
  EXPECT_GT(slant.force.y, 0.0f);
}

TEST(KernelSteerAvoid, NoForceForEdgesOutsideTheBox) {
  EXPECT_TRUE(noHit(crowd::edgeInBox(kBox, Vec2(2, 3), Vec2(8, 3), Vec2(0, -1))));        // Beside.
  EXPECT_TRUE(noHit(crowd::edgeInBox(kBox, Vec2(-3, 5), Vec2(-3, -5), Vec2(1, 0))));      // Behind.
  EXPECT_TRUE(noHit(crowd::edgeInBox(kBox, Vec2(12, 5), Vec2(12, -5), Vec2(-1, 0))));     // Beyond.
  EXPECT_TRUE(noHit(crowd::edgeInBox(kBox, Vec2(2, 1.5f), Vec2(6, 4), Vec2(0.5f, -1))));  // Diagonal, beside.
}

// A world of obstacles and the view the steering phase reads.
struct World {
  crowd::ObstacleSet set;
  crowd::ObstacleIndex index;

  crowd::ObstacleView view() {
    index.update(set);
    index.prepareGrid(10.0f);
    return crowd::ObstacleView{index.edges().data(), static_cast<int>(index.edges().size()), index.grid(),
                               index.cellStart().data(), index.cellEdges().data()};
  }
  Vec2 force(Vec2 position, Vec2 velocity) {
    const crowd::ObstacleView v = view();
    // Radius 1, maxSpeed 2, box 6 at rest: at speed 1 the box is 6 * (1 + 1 / 2) = 9 long.
    return crowd::avoidForce(v, set.circles().data(), position, velocity, 1.0f, 2.0f, 6.0f);
  }
};

TEST(KernelSteerAvoid, WorldForceForACircleLeftOrRightOfTheHeading) {
  // Heading north at speed 1; a circle of radius 1 at (-1, 5) is 5 ahead and 1 to the left. The
  // box's half width is 1.2 (a fifth wider than the agent), so the circle reaches 2.2 from the
  // centre line: lateral (2.2 - 1) * (1 + (9 - 5) / 9) to the right (east), braking a fifth of
  // that, south.
  const float lateral = 1.2f * (1.0f + 4.0f / 9.0f);
  World left;
  left.set.addCircle(Vec2(-1, 5), 1.0f);
  EXPECT_TRUE(near(left.force(Vec2(0, 0), Vec2(0, 1)), Vec2(lateral, -0.2f * lateral)));
  World right;
  right.set.addCircle(Vec2(1, 5), 1.0f);
  EXPECT_TRUE(near(right.force(Vec2(0, 0), Vec2(0, 1)), Vec2(-lateral, -0.2f * lateral)));
  // Heading east past the same circle, it is on the left: pushed south (right of east).
  World east;
  east.set.addCircle(Vec2(5, 1), 1.0f);
  const Vec2 f = east.force(Vec2(0, 0), Vec2(1, 0));
  EXPECT_LT(f.y, 0.0f);
  EXPECT_LT(f.x, 0.0f);
}

TEST(KernelSteerAvoid, WorldForceIsZeroBehindBesideAtRestAndWithoutObstacles) {
  World behind;
  behind.set.addCircle(Vec2(0, -5), 1.0f);
  EXPECT_EQ(behind.force(Vec2(0, 0), Vec2(0, 1)), Vec2(0, 0));
  World beside;
  beside.set.addCircle(Vec2(4, 3), 1.0f);
  beside.set.addCircle(Vec2(-3.5f, 6), 1.0f);
  EXPECT_EQ(beside.force(Vec2(0, 0), Vec2(0, 1)), Vec2(0, 0));
  World ahead;
  ahead.set.addCircle(Vec2(0, 5), 1.0f);
  EXPECT_EQ(ahead.force(Vec2(0, 0), Vec2(0, 0)), Vec2(0, 0));  // At rest: no heading, no box.
  World none;
  EXPECT_EQ(none.force(Vec2(0, 0), Vec2(0, 1)), Vec2(0, 0));
}

TEST(KernelSteerAvoid, ClosestObstacleInTheBoxWins) {
  // A circle 8 ahead on the right and one 4 ahead on the left: the nearer one (left) decides.
  World two;
  two.set.addCircle(Vec2(1, 8), 1.0f);
  two.set.addCircle(Vec2(-1, 4), 1.0f);
  const Vec2 f = two.force(Vec2(0, 0), Vec2(0, 1));
  EXPECT_GT(f.x, 0.0f);                               // Pushed east, away from the near left circle.
  const float lateral = 1.2f * (1.0f + 5.0f / 9.0f);  // (2.2 - 1) * (1 + (9 - 4) / 9).
  EXPECT_TRUE(near(f, Vec2(lateral, -0.2f * lateral)));
}

TEST(KernelSteerAvoid, WorldForceForAPolygonFacingTheAgent) {
  // A square's bottom edge y = 4 from x = -2 to 2, ahead of a northbound agent: its outward
  // normal (0, -1) brakes by the half width 1.2 times the multiplier 1 + (9 - 4) / 9. The side
  // edges lie 2 to each side (outside the half width), and the top edge faces away.
  World square;
  const std::vector<Vec2> corners{{-2, 4}, {2, 4}, {2, 6}, {-2, 6}};
  square.set.addPolygon(corners);
  const float push = 1.2f * (1.0f + 5.0f / 9.0f);
  EXPECT_TRUE(near(square.force(Vec2(0, 0), Vec2(0, 1)), Vec2(0, -push)));
  // Seen from above, heading south, the top edge faces the agent and brakes it the same way.
  EXPECT_TRUE(near(square.force(Vec2(0, 10), Vec2(0, -1)), Vec2(0, push)));
}

}  // namespace
