// The scene's geometry for analysis tools (crowd/scene_geometry.hpp): the walkable area's rings,
// its WKT, and the GeoJSON of every part, in the scenario's coordinates.
#include <algorithm>
#include <map>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <crowd/scenario.hpp>
#include <crowd/scene_geometry.hpp>
#include <crowd/trajectory.hpp>

namespace {

using crowd::Vec2;
using nlohmann::json;

// Twice the signed area of a GeoJSON ring (closed: the first position again at the end).
double twiceArea(const json& ring) {
  double sum = 0.0;
  for (std::size_t i = 0; i + 1 < ring.size(); ++i) {
    sum += ring[i][0].get<double>() * ring[i + 1][1].get<double>() -
           ring[i + 1][0].get<double>() * ring[i][1].get<double>();
  }
  return sum;
}

TEST(SceneGeometry, WalkableAreaRingsAreTheBoxAndTheSolidObstacles) {
  crowd::Simulator sim;
  const std::vector<Vec2> square{Vec2(0.0f, 0.0f), Vec2(2.0f, 0.0f), Vec2(2.0f, 2.0f), Vec2(0.0f, 2.0f)};
  const std::vector<Vec2> wall{Vec2(0.0f, 4.0f), Vec2(6.0f, 4.0f)};
  const std::vector<Vec2> boundary{Vec2(-0.5f, -0.5f), Vec2(-0.5f, 4.5f), Vec2(6.5f, 4.5f),
                                   Vec2(6.5f, -0.5f)};
  sim.addObstacle(square);
  sim.addObstacle(wall);
  sim.addObstacle(boundary);
  const crowd::WalkableArea area = crowd::walkableArea(sim, 2.0);
  // The box round every vertex (-0.5 to 6.5 by -0.5 to 4.5), 2 m wider, counter-clockwise.
  const std::vector<glm::dvec2> box{{-2.5, -2.5}, {8.5, -2.5}, {8.5, 6.5}, {-2.5, 6.5}};
  EXPECT_EQ(area.exterior, box);
  // Only the solid square is a hole, run clockwise; the wall and the boundary enclose no area.
  ASSERT_EQ(area.holes.size(), 1u);
  const std::vector<glm::dvec2> hole{{0.0, 2.0}, {2.0, 2.0}, {2.0, 0.0}, {0.0, 0.0}};
  EXPECT_EQ(area.holes[0], hole);
  EXPECT_FALSE(area.overlapping);
  EXPECT_EQ(crowd::walkableAreaWkt(area),
            "POLYGON ((-2.5 -2.5, 8.5 -2.5, 8.5 6.5, -2.5 6.5, -2.5 -2.5), (0 2, 2 2, 2 0, 0 0, 0 2))");
  EXPECT_EQ(crowd::walkableAreaWkt(area), crowd::walkableAreaWkt(sim, 2.0));
}

TEST(SceneGeometry, GeoJsonHoldsEveryPartWhereTheScenarioPutsIt) {
  // Far from (0, 0), so that the simulator computes in a frame of its own: the file is in the
  // scenario's coordinates all the same.
  const Vec2 at(20000.0f, -8000.0f);
  crowd::Scenario scenario;
  for (const float y : {0.0f, 3.0f}) {
    crowd::AgentDef agent;
    agent.position = at + Vec2(-5.0f, y);
    agent.goal = at + Vec2(15.0f, y);
    scenario.agents.push_back(agent);
  }
  scenario.obstacles = {
      {at + Vec2(2.0f, -4.0f), at + Vec2(4.0f, -4.0f), at + Vec2(4.0f, -2.0f), at + Vec2(2.0f, -2.0f)},
      {at + Vec2(0.0f, 6.0f), at + Vec2(10.0f, 6.0f)}};
  scenario.circles = {crowd::CircleSpec{at + Vec2(8.0f, 1.5f), 1.0f}};
  // Two exit sets sharing a door: three doors.
  scenario.exits = {crowd::ExitSpec{0, 1, {at + Vec2(20.0f, 0.0f), at + Vec2(20.0f, 5.0f)}},
                    crowd::ExitSpec{1, 1, {at + Vec2(20.0f, 5.0f), at + Vec2(-20.0f, 0.0f)}}};
  crowd::MeasurementPlan plan;
  plan.areas.push_back({"middle", {at + Vec2(5.0f, 0.0f), at + Vec2(5.0f, 2.0f), at + Vec2(7.0f, 2.0f)}});
  plan.lines.push_back({"gate", at + Vec2(12.0f, -1.0f), at + Vec2(12.0f, 4.0f)});
  scenario.measure = plan;
  const crowd::Simulator sim = crowd::makeSimulator(scenario);
  ASSERT_NE(sim.config().origin, glm::dvec2(0.0, 0.0)) << "the scene is computed where it stands";

  const json doc = json::parse(crowd::sceneGeometryGeoJson(scenario, sim));
  EXPECT_EQ(doc["type"], "FeatureCollection");
  std::map<std::string, std::vector<json>> byKind;
  for (const json& feature : doc["features"]) {
    EXPECT_EQ(feature["type"], "Feature");
    byKind[feature["properties"]["kind"].get<std::string>()].push_back(feature);
  }
  ASSERT_EQ(byKind["walkable_area"].size(), 1u);
  ASSERT_EQ(byKind["obstacle"].size(), 3u);
  ASSERT_EQ(byKind["exit"].size(), 3u);
  ASSERT_EQ(byKind["measurement_area"].size(), 1u);
  ASSERT_EQ(byKind["measurement_line"].size(), 1u);
  EXPECT_EQ(byKind.size(), 5u);

  // The walkable area: its exterior counter-clockwise, the block and the post as clockwise holes.
  const json& rings = byKind["walkable_area"][0]["geometry"]["coordinates"];
  ASSERT_EQ(rings.size(), 3u);
  EXPECT_GT(twiceArea(rings[0]), 0.0);
  EXPECT_LT(twiceArea(rings[1]), 0.0);
  EXPECT_LT(twiceArea(rings[2]), 0.0);
  EXPECT_DOUBLE_EQ(-0.5 * twiceArea(rings[1]), 4.0);  // The 2 x 2 block.

  const auto withShape = [&](const char* shape) {
    std::vector<json> found;
    for (const json& f : byKind["obstacle"]) {
      if (f["properties"]["shape"] == shape) found.push_back(f);
    }
    return found;
  };
  ASSERT_EQ(withShape("solid").size(), 1u);
  const json block = withShape("solid")[0]["geometry"];
  EXPECT_EQ(block["type"], "Polygon");
  EXPECT_EQ(block["coordinates"][0],
            json::parse("[[20002,-8004],[20004,-8004],[20004,-8002],[20002,-8002],[20002,-8004]]"));
  ASSERT_EQ(withShape("wall").size(), 1u);
  EXPECT_EQ(withShape("wall")[0]["geometry"],
            json::parse(R"({"type": "LineString", "coordinates": [[20000, -7994], [20010, -7994]]})"));
  ASSERT_EQ(withShape("circle").size(), 1u);
  const json post = withShape("circle")[0];
  EXPECT_EQ(post["properties"]["center"], json::parse("[20008, -7998.5]"));
  EXPECT_EQ(post["properties"]["radius"], 1.0);
  // The post's polygon surrounds its circle: every vertex at least the radius from the centre.
  for (const json& p : post["geometry"]["coordinates"][0]) {
    EXPECT_GE(std::hypot(p[0].get<double>() - 20008.0, p[1].get<double>() + 7998.5), 1.0 - 1e-6);
  }

  std::vector<json> doors;
  for (const json& f : byKind["exit"]) doors.push_back(f["geometry"]["coordinates"]);
  std::sort(doors.begin(), doors.end());
  EXPECT_EQ(json(doors), json::parse("[[19980, -8000], [20020, -8000], [20020, -7995]]"));

  EXPECT_EQ(byKind["measurement_area"][0]["properties"]["name"], "middle");
  EXPECT_GT(twiceArea(byKind["measurement_area"][0]["geometry"]["coordinates"][0]), 0.0);
  EXPECT_EQ(byKind["measurement_line"][0]["properties"]["name"], "gate");
  EXPECT_EQ(byKind["measurement_line"][0]["geometry"]["coordinates"],
            json::parse("[[20012, -8001], [20012, -7996]]"));
}

}  // namespace
