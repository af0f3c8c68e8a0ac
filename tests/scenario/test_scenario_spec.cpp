// Scenario specs: a file is read once into a spec; expanding the spec with a seed generates the
// groups, the same agents for the same seed, and works out the warnings once.
#include <algorithm>
#include <string>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <crowd/scenario.hpp>

namespace crowd {
namespace {

// One listed agent, then two random rectangles: one with random goals in a box (drawn from the
// same stream as the positions), one with goals offset from the start.
std::string randomGroups(const std::string& seed) {
  return R"({ "seed": )" + seed + R"(, "agents": [ { "position": [-50, -50] } ],
    "groups": [
      { "type": "rectangle", "count": 100, "min": [-40, 5], "max": [40, 45], "placement": "random",
        "goalRect": { "min": [100, -20], "max": [140, 20] } },
      { "type": "rectangle", "count": 20, "min": [-40, -45], "max": [40, -5], "placement": "random",
        "goalOffset": [0, 90] } ] })";
}

void expectSameAgents(const Scenario& a, const Scenario& b) {
  ASSERT_EQ(a.agents.size(), b.agents.size());
  for (std::size_t i = 0; i < a.agents.size(); ++i) {
    EXPECT_EQ(a.agents[i].position, b.agents[i].position) << "agent " << i;
    EXPECT_EQ(a.agents[i].goal, b.agents[i].goal) << "agent " << i;
    EXPECT_EQ(a.agents[i].params, b.agents[i].params) << "agent " << i;
  }
}

TEST(ScenarioSpec, KeepsGroupsUnexpanded) {
  const ScenarioSpec spec = parseScenarioSpec(randomGroups("5"), "groups.json");
  EXPECT_EQ(spec.name, "groups.json");
  EXPECT_EQ(spec.seed, 5u);
  ASSERT_EQ(spec.agents.size(), 1u);
  ASSERT_EQ(spec.groups.size(), 2u);
  EXPECT_EQ(spec.groups[0].shape, GroupSpec::Shape::rectangle);
  EXPECT_EQ(spec.groups[0].count, 100u);
  EXPECT_TRUE(spec.groups[0].randomPlacement);
  EXPECT_EQ(spec.groups[0].goal, GroupSpec::Goal::box);
  EXPECT_EQ(spec.groups[0].goalMax, Vec2(140.0f, 20.0f));
  EXPECT_EQ(spec.groups[1].goal, GroupSpec::Goal::offset);
  EXPECT_EQ(spec.groups[1].goalVector, Vec2(0.0f, 90.0f));
  EXPECT_EQ(spec.groups[1].stream, 1u);
}

// Positions written by the version before specs existed (crowdsim run --steps 0 --out): the
// random streams must not change.
TEST(ScenarioSpec, GeneratesTheSameAgentsAsBefore) {
  const Scenario seed5 = expandScenario(parseScenarioSpec(randomGroups("5"), "groups.json"));
  ASSERT_EQ(seed5.agents.size(), 121u);
  EXPECT_EQ(seed5.agents[1].position, Vec2(26.2424641f, 22.6049767f));
  EXPECT_EQ(seed5.agents[2].position, Vec2(-7.91794348f, 13.5475283f));
  EXPECT_EQ(seed5.agents[100].position, Vec2(-29.6628132f, 39.8667717f));
  EXPECT_EQ(seed5.agents[101].position, Vec2(-24.8575878f, -21.2357502f));
  EXPECT_EQ(seed5.agents[120].position, Vec2(27.2802563f, -38.2695122f));
  const Scenario seed9 = expandScenario(parseScenarioSpec(randomGroups("5"), "groups.json"), 9);
  EXPECT_EQ(seed9.agents[1].position, Vec2(-20.3794212f, 18.5884781f));
  EXPECT_EQ(seed9.agents[2].position, Vec2(22.633503f, 38.8649902f));
  EXPECT_EQ(seed9.agents[100].position, Vec2(32.9105301f, 34.0782204f));
  EXPECT_EQ(seed9.agents[101].position, Vec2(1.05010557f, -41.6473312f));
  EXPECT_EQ(seed9.agents[120].position, Vec2(-33.5493965f, -32.3109169f));
}

TEST(ScenarioSpec, ASeedRegeneratesAsIfTheFileSaidIt) {
  const ScenarioSpec spec = parseScenarioSpec(randomGroups("5"), "groups.json");
  const Scenario reseeded = expandScenario(spec, 9);
  EXPECT_EQ(reseeded.seed, 9u);
  expectSameAgents(reseeded, parseScenario(randomGroups("9"), "groups.json"));
  expectSameAgents(expandScenario(spec), parseScenario(randomGroups("5"), "groups.json"));
  // Goals drawn from a box differ with the seed, and stay in the box.
  const Scenario original = expandScenario(spec);
  EXPECT_NE(original.agents[1].goal, reseeded.agents[1].goal);
  for (std::size_t i = 1; i <= 100; ++i) {
    ASSERT_TRUE(reseeded.agents[i].goal.has_value());
    EXPECT_GE(reseeded.agents[i].goal->x, 100.0f);
    EXPECT_LE(reseeded.agents[i].goal->x, 140.0f);
  }
  // Offsets are fixed: each goal is its agent's start moved 90 north.
  EXPECT_EQ(*reseeded.agents[110].goal, reseeded.agents[110].position + Vec2(0.0f, 90.0f));
}

TEST(ScenarioSpec, WarningsAreWorkedOutOnceForTheExpandedScenario) {
  // Two listed agents overlap; each seed adds its own overlaps among the random agents.
  const std::string text = R"({ "agents": [ { "position": [0, 0] }, { "position": [1, 0] } ],
    "groups": [ { "type": "rectangle", "count": 30, "min": [100, 0], "max": [140, 40],
                  "placement": "random" } ] })";
  const ScenarioSpec spec = parseScenarioSpec(text, "pair.json");
  for (const std::uint64_t seed : {1u, 7u, 8u}) {
    const Scenario scenario = expandScenario(spec, seed);
    const auto overlaps =
        std::count_if(scenario.warnings.begin(), scenario.warnings.end(),
                      [](const std::string& w) { return w.find("start overlapping") != std::string::npos; });
    EXPECT_EQ(overlaps, 1) << "seed " << seed;
    EXPECT_EQ(scenario.warnings.size(), 1u) << "seed " << seed;
  }
}

TEST(ScenarioSpec, LoadScenarioSpecReadsAFileOnce) {
  const std::string path = std::string(CROWD_SOURCE_DIR) + "/scenarios/room_with_door.json";
  const ScenarioSpec spec = loadScenarioSpec(path);
  EXPECT_EQ(spec.name, path);
  EXPECT_TRUE(spec.agents.empty());
  ASSERT_EQ(spec.groups.size(), 1u);
  EXPECT_EQ(spec.groups[0].count, 60u);
  EXPECT_EQ(spec.obstacles.size(), 5u);
  expectSameAgents(expandScenario(spec), loadScenarioFile(path));
}

}  // namespace
}  // namespace crowd
