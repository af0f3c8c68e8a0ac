// Steering in situations that once went wrong, run whole through the scenario reader: an evader
// turning round into a faster pursuer, a follower lagging on a densely sampled path or walking
// back along it, a detection box pulled towards a wide circle, lengths of zero, and separation
// from a neighbour all but on top of the agent.
#include <cmath>
#include <string>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <crowd/scenario.hpp>

#include "scenario_error_text.hpp"

namespace crowd {
namespace {

using ::testing::HasSubstr;

Simulator simulatorFor(const std::string& json) {
  return makeSimulator(parseScenario(json, "case.json"), 1);
}

// A follower on an open path along y = 0 from x = 0 to 50 with points every `spacing`.
std::string followerOn(float spacing, float startX, float velocityX, const char* lookAhead = "3") {
  std::string points;
  const int count = static_cast<int>(std::lround(50.0f / spacing));
  for (int i = 0; i <= count; ++i) {
    if (i > 0) points += ',';
    points += '[';
    points += std::to_string(spacing * static_cast<float>(i));
    points += ",0]";
  }
  std::string json = R"({"timeStep": 0.1, "paths": [{"points": [)";
  json += points;
  json += R"(]}], "agentDefaults": {"radius": 0.5, "maxSpeed": 2, "prefSpeed": 1.5, "avoidance": "none"},
    "agents": [{"position": [)";
  json += std::to_string(startX) + R"(, 0], "velocity": [)" + std::to_string(velocityX);
  json += R"(, 0], "behavior": "follow", "path": 0, "pathRadius": 0.5, "lookAhead": )";
  json += lookAhead;
  json += "}]}";
  return json;
}

TEST(SteeringCases, AnEvaderRunsOnFromAFasterPursuerBehindIt) {
  // The pursuer (2.2) closes on the evader (2) from 10 behind. Fleeing its position after the
  // closing time (x = 110, ahead of the evader) turned the evader round into it.
  Simulator sim = simulatorFor(R"({"timeStep": 0.1,
    "agentDefaults": {"radius": 0.5, "maxSpeed": 2, "prefSpeed": 2, "avoidance": "none"},
    "agents": [{"name": "prey", "position": [10, 0], "velocity": [2, 0], "behavior": "evade", "target": "hunter"},
               {"name": "hunter", "position": [0, 0], "velocity": [2.2, 0], "maxSpeed": 2.2, "prefSpeed": 2.2,
                "behavior": "pursue", "pursuit": "sight", "target": "prey"}]})");
  for (int s = 0; s < 30; ++s) {
    sim.step();
    EXPECT_GT(sim.velocity(sim.ids()[0]).x, 1.9f) << "step " << s;
  }
  // Gaining 0.2 m/s, the pursuer is still 4 behind after 3 s.
  EXPECT_GT(sim.position(sim.ids()[0]).x - sim.position(sim.ids()[1]).x, 3.5f);
}

TEST(SteeringCases, AFollowerKeepsItsSpeedOnADenselySampledPath) {
  // Points every 0.05: the prediction lies 60 segments ahead. A window of two segments ahead
  // left every normal point behind the agent, which surged and braked at about 1 m/s.
  for (const float spacing : {0.05f, 0.5f}) {
    Simulator sim = simulatorFor(followerOn(spacing, 0.0f, 1.5f));
    const AgentId id = sim.ids()[0];
    for (int s = 0; s < 100; ++s) sim.step();
    float slowest = INFINITY;
    const float from = sim.position(id).x;
    for (int s = 0; s < 100; ++s) {
      sim.step();
      slowest = std::min(slowest, sim.velocity(id).x);
      EXPECT_NEAR(sim.position(id).y, 0.0f, 0.5f);
    }
    EXPECT_GT(slowest, 1.45f) << "spacing " << spacing;
    EXPECT_NEAR(sim.position(id).x - from, 15.0f, 0.2f) << "spacing " << spacing;
  }
}

TEST(SteeringCases, AFollowerWalkingBackAlongThePathTurnsRound) {
  // At x = 25 walking -x at 1.5: the aim from its backward prediction lay behind it too, and it
  // walked back some 20 m before turning. Turning at maxForce (10 at mass 1) takes a fraction of
  // a second; within 3 s it walks +x again, past where it started.
  Simulator sim = simulatorFor(followerOn(10.0f, 25.0f, -1.5f));
  const AgentId id = sim.ids()[0];
  float leftmost = 25.0f;
  for (int s = 0; s < 30; ++s) {
    sim.step();
    leftmost = std::min(leftmost, sim.position(id).x);
  }
  EXPECT_GT(leftmost, 24.5f);  // It turns within a second, 0.4 m back.
  EXPECT_GT(sim.velocity(id).x, 1.3f);
  for (int s = 0; s < 20; ++s) sim.step();
  EXPECT_GT(sim.position(id).x, 26.0f);
}

TEST(SteeringCases, AWideCircleAtTheFarEndOfTheBoxPushesAwayAndBrakes) {
  // A circle of radius 10 whose centre lies beyond twice the box's length: the book's multiplier
  // went negative, pulling the agent towards it and speeding it up past prefSpeed.
  Simulator sim = simulatorFor(R"({"timeStep": 0.1, "circles": [[24, 3, 10]],
    "agentDefaults": {"radius": 0.5, "maxSpeed": 2, "prefSpeed": 1},
    "agents": [{"position": [0, 0], "velocity": [1, 0], "goal": [60, 0], "avoidance": "none",
                "behavior": [{"name": "avoid", "weight": 1}, "goal"]}]})");
  const AgentId id = sim.ids()[0];
  for (int s = 0; s < 120; ++s) {
    sim.step();
    EXPECT_LE(sim.position(id).y, 1e-4f) << "step " << s;  // Never towards the circle's side.
    EXPECT_LE(std::hypot(sim.velocity(id).x, sim.velocity(id).y), 1.0f + 1e-4f) << "step " << s;
  }
}

TEST(SteeringCases, LengthsThatLeaveABehaviourNothingToDoAreRefused) {
  EXPECT_THAT(scenarioErrorFor(followerOn(10.0f, 0.0f, 1.0f, "0"), "case.json"),
              HasSubstr("follow needs a lookAhead above 0"));
  EXPECT_THAT(scenarioErrorFor(R"({"circles": [[5, 0.2, 1]], "agents": [{"position": [0, 0], "goal": [10, 0],
                                   "behavior": ["goal", "avoid"], "boxLength": 0}]})",
                               "case.json"),
              HasSubstr("avoid needs a boxLength above 0"));
  // Unused, a zero length is harmless: an agent that does not follow may leave lookAhead at 0.
  EXPECT_NO_THROW(parseScenario(R"({"agents": [{"position": [0, 0], "goal": [1, 0], "behavior": "seek",
                                    "lookAhead": 0, "boxLength": 0}]})",
                                "case.json"));
}

TEST(SteeringCases, SeparationFromANeighbourAllButOnTopStaysFinite) {
  // 1e-20 apart: speed / distance overflowed to an infinite velocity and the run stopped.
  Simulator sim = simulatorFor(R"({"timeStep": 0.1, "agentDefaults": {"radius": 0.5, "avoidance": "none"},
    "agents": [{"position": [0, 0], "behavior": "separation"}, {"position": [1e-20, 0], "behavior": "separation"}]})");
  for (int s = 0; s < 20; ++s) sim.step();
  const Vec2 a = sim.position(sim.ids()[0]);
  const Vec2 b = sim.position(sim.ids()[1]);
  EXPECT_TRUE(std::isfinite(a.x) && std::isfinite(b.x));
  EXPECT_GT(b.x - a.x, 1.0f);  // Pushed apart, each the way it lies from the other.
}

}  // namespace
}  // namespace crowd
