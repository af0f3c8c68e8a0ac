// The steering built-ins (pursuit, pathloop, forest, mix): the count asked for, behaviours the
// simulator accepts, targets and paths that exist, nobody starting inside a post, and each
// one's own layout. How they run (arrivals, captures, posts kept clear) is tested in
// test_builtin_arrivals.cpp.
#include <algorithm>
#include <cmath>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include <crowd/scenario.hpp>

namespace crowd {
namespace {

const std::vector<std::string> kSteeringNames = {"pursuit", "pathloop", "forest", "mix"};
const std::map<std::string, std::size_t> kDefaults = {
    {"pursuit", 60}, {"pathloop", 12}, {"forest", 50}, {"mix", 2000}};

std::size_t countWith(const Scenario& scenario, BehaviorKind kind) {
  return static_cast<std::size_t>(std::count_if(scenario.agents.begin(), scenario.agents.end(),
                                                [&](const AgentDef& a) { return a.behavior.has(kind); }));
}

TEST(SteeringBuiltins, EachBuildsTheCountAskedWithUsableBehaviours) {
  for (const std::string& name : kSteeringNames) {
    for (const std::optional<std::size_t> count :
         {std::optional<std::size_t>(1), std::optional<std::size_t>(2), std::optional<std::size_t>(7),
          std::optional<std::size_t>(13), std::optional<std::size_t>(100), std::optional<std::size_t>()}) {
      SCOPED_TRACE(name + " with " + (count ? std::to_string(*count) : "default") + " agents");
      const Scenario scenario = builtinScenario(name, count);
      ASSERT_EQ(scenario.agents.size(), count.value_or(kDefaults.at(name)));
      EXPECT_EQ(scenario.name, "builtin:" + name);
      EXPECT_GT(scenario.steps, 0);
      EXPECT_TRUE(scenario.warnings.empty()) << scenario.warnings.front();
      for (std::size_t i = 0; i < scenario.agents.size(); ++i) {
        const AgentDef& agent = scenario.agents[i];
        EXPECT_EQ(checkBehavior(agent.behavior, static_cast<int>(scenario.paths.size())), "")
            << "agent " << i;
        if (agent.target) {
          EXPECT_LT(agent.target->index, scenario.agents.size()) << "agent " << i;
          EXPECT_NE(agent.target->index, i) << "agent " << i;
        }
        // The scenario warnings do not look at circles: nobody may start on a post.
        for (const CircleSpec& post : scenario.circles) {
          ASSERT_GE(length(agent.position - post.center), post.radius + agent.params.radius) << "agent " << i;
        }
      }
      const Simulator sim = makeSimulator(scenario);  // Accepts every behaviour, target and path.
      EXPECT_EQ(sim.agentCount(), scenario.agents.size());
      EXPECT_EQ(sim.pathCount(), static_cast<int>(scenario.paths.size()));
    }
  }
}

TEST(SteeringBuiltins, LargeCountsBuild) {
  for (const std::string& name : kSteeringNames) {
    SCOPED_TRACE(name);
    const Scenario scenario = builtinScenario(name, 100'000);
    EXPECT_EQ(scenario.agents.size(), 100'000u);
    EXPECT_TRUE(scenario.warnings.empty()) << scenario.warnings.front();
  }
}

TEST(SteeringBuiltins, PursuitPairsEachEvaderWithAPursuerOfEachKindInTurn) {
  const Scenario scenario = builtinScenario("pursuit");
  std::map<PursuitKind, std::size_t> kinds;
  for (std::size_t i = 0; i < scenario.agents.size(); ++i) {
    const AgentDef& agent = scenario.agents[i];
    if (i % 2 == 0) {  // The evader of its pair: walks to a goal, pursues nobody.
      EXPECT_TRUE(agent.goal.has_value());
      EXPECT_FALSE(agent.target.has_value());
      EXPECT_TRUE(agent.behavior.has(BehaviorKind::Goal));
      continue;
    }
    ASSERT_TRUE(agent.behavior.has(BehaviorKind::Pursue)) << "agent " << i;
    EXPECT_FALSE(agent.goal.has_value());
    ASSERT_TRUE(agent.target.has_value());
    EXPECT_EQ(agent.target->index, i - 1);
    EXPECT_EQ(agent.behavior.avoidance, AvoidanceMode::Orca);
    EXPECT_EQ(agent.behavior.pursuit, static_cast<PursuitKind>((i / 2) % 3));
    ++kinds[agent.behavior.pursuit];
    // The evader is faster: running at where it is never closes the gap while it walks.
    const AgentDef& evader = scenario.agents[agent.target->index];
    EXPECT_GT(evader.params.prefSpeed, agent.params.maxSpeed);
  }
  EXPECT_EQ(kinds[PursuitKind::Chase], 10u);
  EXPECT_EQ(kinds[PursuitKind::Sight], 10u);
  EXPECT_EQ(kinds[PursuitKind::Intercept], 10u);
  // Pairs never meet: agents of different pairs start far apart.
  for (std::size_t i = 0; i < scenario.agents.size(); ++i) {
    for (std::size_t j = i + 1; j < scenario.agents.size(); ++j) {
      if (i / 2 == j / 2) continue;
      EXPECT_GT(length(scenario.agents[i].position - scenario.agents[j].position), 25.0f);
    }
  }
}

TEST(SteeringBuiltins, PathLoopIsReynoldsFivePointLoop) {
  const Scenario one = builtinScenario("pathloop");
  ASSERT_EQ(one.paths.size(), 1u);
  const PathSpec& path = one.paths[0];
  EXPECT_TRUE(path.loop);
  ASSERT_EQ(path.points.size(), 5u);
  for (const Vec2 p : path.points) EXPECT_NEAR(length(p), 20.0f, 1e-4f);
  for (const AgentDef& agent : one.agents) {
    EXPECT_TRUE(agent.behavior.has(BehaviorKind::FollowPath));
    EXPECT_EQ(agent.behavior.path, 0);
    EXPECT_EQ(agent.behavior.pathRadius, 2.0f);
    EXPECT_FALSE(agent.goal.has_value());
    // Each starts on the loop, at least a body from the next.
    float onPath = 1e30f;
    for (std::size_t s = 0; s < 5; ++s) {
      const Vec2 a = path.points[s];
      const Vec2 b = path.points[(s + 1) % 5];
      const float t = std::clamp(dot(agent.position - a, b - a) / absSq(b - a), 0.0f, 1.0f);
      onPath = std::min(onPath, length(agent.position - (a + (b - a) * t)));
    }
    EXPECT_LT(onPath, 1e-3f);
  }
  // More agents make more loops of about a dozen, far enough apart never to meet.
  const Scenario three = builtinScenario("pathloop", 25);
  ASSERT_EQ(three.paths.size(), 3u);
  std::vector<std::size_t> perPath(3, 0);
  for (const AgentDef& agent : three.agents) ++perPath[static_cast<std::size_t>(agent.behavior.path)];
  EXPECT_EQ(perPath, (std::vector<std::size_t>{9, 8, 8}));
}

TEST(SteeringBuiltins, ForestCrossesThePostsWithTheBoxAlone) {
  const Scenario scenario = builtinScenario("forest", 200);
  ASSERT_FALSE(scenario.circles.empty());
  float postsFrom = 1e30f;
  float postsTo = -1e30f;
  for (const CircleSpec& post : scenario.circles) {
    postsFrom = std::min(postsFrom, post.center.x - post.radius);
    postsTo = std::max(postsTo, post.center.x + post.radius);
  }
  std::size_t blocked = 0;  // Agents whose straight walk would run into a post.
  for (const AgentDef& agent : scenario.agents) {
    EXPECT_EQ(agent.behavior.avoidance, AvoidanceMode::None);
    EXPECT_TRUE(agent.behavior.has(BehaviorKind::AvoidObstacles));
    EXPECT_TRUE(agent.behavior.has(BehaviorKind::Seek) || agent.behavior.has(BehaviorKind::Goal));
    ASSERT_TRUE(agent.goal.has_value());
    EXPECT_LT(agent.position.x + agent.params.radius, postsFrom);
    EXPECT_GT(agent.goal->x - agent.params.radius, postsTo);
    bool hits = false;
    for (const CircleSpec& post : scenario.circles) {
      hits = hits || std::abs(post.center.y - agent.goal->y) < post.radius + agent.params.radius;
    }
    blocked += hits ? 1 : 0;
  }
  EXPECT_EQ(countWith(scenario, BehaviorKind::Seek), 100u);  // Half seek, half the goal rule.
  EXPECT_GT(blocked, scenario.agents.size() / 4);
}

TEST(SteeringBuiltins, MixHasEveryBehaviourAmongItsPosts) {
  const Scenario scenario = builtinScenario("mix");
  EXPECT_TRUE(scenario.removeArrived);
  // Wanderers, followers and pursuit pairs never finish: the run ends with the goal walkers.
  EXPECT_TRUE(scenario.endWhenGoalsReached);
  EXPECT_FALSE(scenario.circles.empty());
  EXPECT_EQ(scenario.paths.size(), scenario.circles.size());  // A loop round every post.
  const std::size_t goalOnly =
      static_cast<std::size_t>(std::count_if(scenario.agents.begin(), scenario.agents.end(),
                                             [](const AgentDef& a) { return a.behavior.goalOnly(); }));
  EXPECT_EQ(goalOnly, 400u);
  EXPECT_EQ(countWith(scenario, BehaviorKind::Goal), 600u);
  EXPECT_EQ(countWith(scenario, BehaviorKind::Arrive), 200u);
  EXPECT_EQ(countWith(scenario, BehaviorKind::Wander), 400u);
  EXPECT_EQ(countWith(scenario, BehaviorKind::FollowPath), 400u);
  EXPECT_EQ(countWith(scenario, BehaviorKind::Pursue), 200u);
  EXPECT_EQ(countWith(scenario, BehaviorKind::Evade), 200u);
  EXPECT_EQ(countWith(scenario, BehaviorKind::AvoidObstacles), 600u);
  for (std::size_t i = 0; i < scenario.agents.size(); ++i) {
    const AgentDef& agent = scenario.agents[i];
    EXPECT_EQ(agent.behavior.avoidance, AvoidanceMode::Orca);
    if (agent.behavior.has(BehaviorKind::Pursue)) {  // Pairs: each targets the other.
      ASSERT_TRUE(agent.target.has_value());
      const AgentDef& evader = scenario.agents[agent.target->index];
      EXPECT_TRUE(evader.behavior.has(BehaviorKind::Evade));
      EXPECT_EQ(evader.target->index, i);
    }
    if (agent.behavior.has(BehaviorKind::FollowPath)) {
      // The loop round the nearest post (nearest to its lattice place: up to 1 less its jitter).
      const PathSpec& loop = scenario.paths[static_cast<std::size_t>(agent.behavior.path)];
      Vec2 centre(0.0f, 0.0f);
      for (const Vec2 p : loop.points) centre += p / 5.0f;
      float nearest = 1e30f;
      for (const CircleSpec& post : scenario.circles)
        nearest = std::min(nearest, length(agent.position - post.center));
      EXPECT_LE(length(agent.position - centre), nearest + 2.0f) << "agent " << i;
    }
    if (agent.goal) {  // Never on a post, where nobody could stand.
      for (const CircleSpec& post : scenario.circles) {
        ASSERT_GE(length(*agent.goal - post.center), post.radius + agent.params.radius) << "agent " << i;
      }
    }
  }
}

}  // namespace
}  // namespace crowd
