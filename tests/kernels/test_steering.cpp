// Unit tests for crowd/kernels/steering.hpp: the integration (force truncated to maxForce, gain
// dt / mass capped at 1, velocity clipped to maxSpeed), and steeredVelocity on a hand-built step
// view: the weighted sum and the priority rule, the target lookup (a dead or reused id steers
// nobody), and the target's velocity estimated from its last two positions.
#include <cmath>
#include <vector>

#include <gtest/gtest.h>

#include "crowd/kernels/steering.hpp"
#include "vec_near.hpp"

namespace {

using crowd::AgentId;
using crowd::BehaviorKind;
using crowd::Vec2;

using crowd::test::near;

TEST(KernelSteering, IntegrationTruncatesTheForceToMaxForce) {
  // Force 10 east, maxForce 4, mass 1, dt 0.25: 4 * 0.25 = 1.
  EXPECT_EQ(crowd::integrateSteering(Vec2(0, 0), Vec2(10, 0), 4.0f, 1.0f, 0.25f, 2.0f), Vec2(1, 0));
  // Within maxForce the force is kept: 2 * 0.25.
  EXPECT_EQ(crowd::integrateSteering(Vec2(0, 0), Vec2(2, 0), 4.0f, 1.0f, 0.25f, 2.0f), Vec2(0.5f, 0));
  // Truncation keeps the direction: (30, 40) to length 5, then (3, 4) * 0.25.
  EXPECT_TRUE(
      near(crowd::integrateSteering(Vec2(0, 0), Vec2(30, 40), 5.0f, 1.0f, 0.25f, 2.0f), Vec2(0.75f, 1.0f)));
  // Mass 2 halves the gain: 4 * 0.25 / 2.
  EXPECT_EQ(crowd::integrateSteering(Vec2(0, 0), Vec2(4, 0), 4.0f, 0.5f, 0.25f, 2.0f), Vec2(0.5f, 0));
}

TEST(KernelSteering, IntegrationGainIsCappedAtOneAndSpeedClippedToMaxSpeed) {
  // Mass 0.1 at dt 0.25 would give a gain of 2.5: capped at 1, a light agent takes the desired
  // velocity change once, never overshooting it.
  EXPECT_EQ(crowd::integrateSteering(Vec2(0, 0), Vec2(1.5f, 0), 4.0f, 10.0f, 0.25f, 2.0f), Vec2(1.5f, 0));
  // (1.9, 0) + 4 * 0.25 = 2.9, clipped to maxSpeed 2.
  EXPECT_TRUE(near(crowd::integrateSteering(Vec2(1.9f, 0), Vec2(4, 0), 4.0f, 1.0f, 0.25f, 2.0f), Vec2(2, 0)));
  // A sideways force on an agent already at maxSpeed turns it without speeding it up.
  const Vec2 v = crowd::integrateSteering(Vec2(2, 0), Vec2(0, 4), 4.0f, 1.0f, 0.25f, 2.0f);
  EXPECT_NEAR(crowd::length(v), 2.0f, 1e-6f);
  EXPECT_GT(v.y, 0.0f);
  // No force: the velocity is kept.
  EXPECT_EQ(crowd::integrateSteering(Vec2(0.3f, -0.4f), Vec2(0, 0), 4.0f, 1.0f, 0.25f, 2.0f),
            Vec2(0.3f, -0.4f));
}

// A step view of a few agents with no neighbours, obstacles or paths, every agent on profile 0,
// sorted slot = id index. Agent 0 is the one steered; the others are possible targets.
struct Scene {
  std::vector<AgentId> id;
  std::vector<Vec2> position, velocity, prefVelocity, goal;
  std::vector<std::uint32_t> profile;
  std::vector<std::uint8_t> flags;
  std::vector<float> startTime;
  crowd::ProfileTerms terms{};
  crowd::SteeringTerms steering{};
  std::vector<AgentId> target;
  std::vector<Vec2> wanderIn, wanderOut, lastTargetIn, lastTargetOut;
  std::vector<int> route, segmentIn, segmentOut, slotOfId;
  std::vector<std::uint8_t> flagsIn, flagsOut;
  std::vector<int> neighbourSlots, neighbourCount;
  std::vector<int> pathStart{0};
  std::vector<std::uint8_t> pathLoop;

  explicit Scene(const std::vector<Vec2>& positions) {
    const std::size_t n = positions.size();
    for (std::size_t i = 0; i < n; ++i) id.push_back(AgentId{static_cast<std::uint32_t>(i), 1});
    position = positions;
    velocity.assign(n, Vec2(0, 0));
    prefVelocity.assign(n, Vec2(0, 0));
    goal.assign(n, Vec2(0, 0));
    profile.assign(n, 0);
    flags.assign(n, 0);
    startTime.assign(n, 0.0f);
    target.assign(n, crowd::kNoTarget);
    wanderIn.assign(n, Vec2(0, 0));
    wanderOut.assign(n, Vec2(0, 0));
    lastTargetIn.assign(n, Vec2(0, 0));
    lastTargetOut.assign(n, Vec2(0, 0));
    segmentIn.assign(n, -1);
    route.assign(n, -1);
    segmentOut.assign(n, -1);
    flagsIn.assign(n, 0);
    flagsOut.assign(n, 0);
    for (std::size_t i = 0; i < n; ++i) slotOfId.push_back(static_cast<int>(i));
    neighbourSlots.assign(n * 4, -1);
    neighbourCount.assign(n, 0);
    terms.radius = 0.5f;
    terms.maxSpeed = 2.0f;
    terms.prefSpeed = 1.0f;
    steering.maxForce = 4.0f;
    steering.invMass = 1.0f;
    steering.slowingRadius = 5.0f;
    steering.avoidance = crowd::AvoidanceMode::None;
  }

  void behaviours(std::vector<BehaviorKind> kinds, std::vector<float> weights, crowd::CombineRule combine) {
    steering.count = static_cast<int>(kinds.size());
    for (int i = 0; i < steering.count; ++i) {
      steering.kind[i] = kinds[static_cast<std::size_t>(i)];
      steering.weight[i] = weights[static_cast<std::size_t>(i)];
    }
    steering.combine = combine;
  }

  crowd::StepView view() {
    crowd::StepView v{};
    v.agents = crowd::AgentArrays{id.data(),   position.data(), velocity.data(), prefVelocity.data(),
                                  goal.data(), profile.data(),  flags.data(),    startTime.data()};
    v.count = static_cast<int>(id.size());
    v.terms = &terms;
    v.steering = &steering;
    v.state = crowd::SteeringState{target.data(),
                                   route.data(),
                                   wanderIn.data(),
                                   wanderOut.data(),
                                   segmentIn.data(),
                                   segmentOut.data(),
                                   lastTargetIn.data(),
                                   lastTargetOut.data(),
                                   flagsIn.data(),
                                   flagsOut.data(),
                                   nullptr,
                                   nullptr,
                                   slotOfId.data(),
                                   static_cast<int>(slotOfId.size())};
    v.paths = crowd::PathView{nullptr, pathStart.data(), pathLoop.data(), 0};
    v.neighbours = crowd::NeighbourTable{neighbourSlots.data(), neighbourCount.data(), 4, 1};
    v.obstacles.edgeCount = 0;
    v.timeStep = 0.25f;
    v.invTimeStep = 4.0f;
    v.seed = 1;
    v.step = 1;
    return v;
  }
  Vec2 steered() {
    crowd::StepTally tally;
    return crowd::steeredVelocity(view(), 0, tally);
  }
};

TEST(KernelSteering, SumAddsWeightedForcesAndPriorityTakesTheFirstNonZero) {
  // Agent 0 at rest with a goal 10 east, prefSpeed 1: seek's force is (1, 0), flee's (-1, 0),
  // pursue's zero (no target). One step: force * dt / mass = force * 0.25.
  Scene scene({{0, 0}});
  scene.goal[0] = Vec2(10, 0);
  scene.flags[0] = crowd::kHasGoal;
  using crowd::CombineRule;
  scene.behaviours({BehaviorKind::Pursue, BehaviorKind::Seek, BehaviorKind::Flee}, {1, 1, 1},
                   CombineRule::Sum);
  EXPECT_EQ(scene.steered(), Vec2(0, 0));  // Seek and flee cancel.
  scene.behaviours({BehaviorKind::Pursue, BehaviorKind::Seek, BehaviorKind::Flee}, {1, 1, 1},
                   CombineRule::Priority);
  EXPECT_EQ(scene.steered(), Vec2(0.25f, 0));  // Pursue gives nothing; seek is first.
  // A zero weight makes a behaviour's force zero, so priority passes over it too.
  scene.behaviours({BehaviorKind::Seek, BehaviorKind::Flee}, {0, 1}, CombineRule::Priority);
  EXPECT_EQ(scene.steered(), Vec2(-0.25f, 0));
  // Weights scale the sum: 3 * seek + 1 * flee = 2 * (1, 0); 0.5 per step.
  scene.behaviours({BehaviorKind::Seek, BehaviorKind::Flee}, {3, 1}, CombineRule::Sum);
  EXPECT_EQ(scene.steered(), Vec2(0.5f, 0));
  // The sum is truncated to maxForce 4 before integrating: 10 * seek gives 4 * 0.25 = 1.
  scene.behaviours({BehaviorKind::Seek}, {10}, CombineRule::Sum);
  EXPECT_EQ(scene.steered(), Vec2(1, 0));
}

TEST(KernelSteering, SeekHeadsForTheTargetAgentBeforeTheGoal) {
  Scene scene({{0, 0}, {0, 5}});
  scene.goal[0] = Vec2(10, 0);
  scene.flags[0] = crowd::kHasGoal;
  scene.target[0] = scene.id[1];
  scene.behaviours({BehaviorKind::Seek}, {1}, crowd::CombineRule::Sum);
  EXPECT_EQ(scene.steered(), Vec2(0, 0.25f));  // North, at the target, not east.
  // The target was seen: its position is kept for the next step's velocity estimate.
  EXPECT_EQ(scene.lastTargetOut[0], Vec2(0, 5));
  EXPECT_EQ(scene.flagsOut[0], crowd::kTargetSeen);
}

TEST(KernelSteering, DeadOrReusedTargetGivesNoPursuitForce) {
  // Agent 0 moving (0.5, 0) pursues agent 1. Pursuit alone, no force: the velocity is kept.
  Scene scene({{0, 0}, {10, 0}});
  scene.velocity[0] = Vec2(0.5f, 0);
  scene.behaviours({BehaviorKind::Pursue}, {1}, crowd::CombineRule::Sum);
  scene.target[0] = AgentId{1, 1};
  const Vec2 alive = scene.steered();
  EXPECT_GT(alive.x, 0.5f);  // Alive: it speeds up towards it.
  // Removed: no slot this step.
  scene.slotOfId[1] = -1;
  EXPECT_EQ(scene.steered(), Vec2(0.5f, 0));
  EXPECT_EQ(scene.flagsOut[0], 0);
  // The slot's index reused by a new agent (another generation): not the target.
  scene.slotOfId[1] = 1;
  scene.id[1] = AgentId{1, 2};
  EXPECT_EQ(scene.steered(), Vec2(0.5f, 0));
  // An id past the table (idCount) is no target either.
  scene.target[0] = AgentId{7, 1};
  EXPECT_EQ(scene.steered(), Vec2(0.5f, 0));
}

TEST(KernelSteering, TargetVelocityComesFromItsLastTwoPositions) {
  // The target was at (10, -1) a step (0.25 s) ago and is at (10, 0): velocity (0, 4). Evade
  // from the origin at rest: look-ahead 10 / (maxSpeed 2 + 4), the threat predicted at
  // (10, 20/3); flee at maxSpeed 2 along -(10, 20/3), gain 0.25, after truncation to maxForce 4
  // (|desired| = 2).
  Scene scene({{0, 0}, {10, 0}});
  scene.behaviours({BehaviorKind::Evade}, {1}, crowd::CombineRule::Sum);
  scene.target[0] = scene.id[1];
  scene.lastTargetIn[0] = Vec2(10, -1);
  scene.flagsIn[0] = crowd::kTargetSeen;
  const float threat = std::sqrt(100.0f + 400.0f / 9.0f);
  EXPECT_TRUE(near(scene.steered(), Vec2(-10.0f, -20.0f / 3.0f) * (2.0f * 0.25f / threat)));
  // Not seen before: its velocity is taken as zero, and the threat is where it is.
  scene.flagsIn[0] = 0;
  EXPECT_TRUE(near(scene.steered(), Vec2(-0.5f, 0)));
}

}  // namespace
