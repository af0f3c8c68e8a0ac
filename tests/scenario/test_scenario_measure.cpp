// Measurement areas and lines in scenario files ("measure"): what is read (polygons, the rectangle
// shorthand, lines, the settings), what the spec and the scenario keep, and every refusal named at
// its place, 3D files and specs built in code included.
#include <string>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <crowd/scenario.hpp>
#include <crowd/scenario3.hpp>

#include "scenario_error_text.hpp"

namespace crowd {
namespace {

using ::testing::HasSubstr;
using ::testing::StartsWith;

// A small planar file with `measure` as its "measure" value.
std::string withMeasure(const std::string& measure) {
  return R"({"agents": [{"position": [0, 0], "prefVelocity": [1, 0]}], "measure": )" + measure + "}";
}

// An area and a line that are fine, for files that get one thing wrong elsewhere.
const std::string kGoodArea = R"({"name": "a", "min": [0, 0], "max": [2, 2]})";
const std::string kGoodLine = R"({"name": "l", "from": [5, 2], "to": [5, -2]})";

TEST(ScenarioMeasure, AreasLinesAndSettingsAreRead) {
  const ScenarioSpec spec = parseScenarioSpec(withMeasure(R"({
      "interval": 0.5, "voronoiCutOff": 0.8, "voronoiResolution": 0.04,
      "areas": [{"name": "hall", "polygon": [[0, 0], [6, 0], [6, 4], [4, 4], [4, 1], [2, 1], [2, 4], [0, 4]]},
                {"name": "door", "min": [-3, -1], "max": [-1, 2.5]}],
      "lines": [{"name": "exit", "from": [10, 3], "to": [10, -3]}]})"),
                                              "m.json");
  ASSERT_TRUE(spec.measure.has_value());
  const MeasurementPlan& plan = *spec.measure;
  EXPECT_DOUBLE_EQ(plan.interval, 0.5);
  EXPECT_EQ(plan.voronoiCutOff, 0.8f);
  EXPECT_EQ(plan.voronoiResolution, 0.04f);
  EXPECT_EQ(plan.threads, 0);  // The program that runs it chooses.
  ASSERT_EQ(plan.areas.size(), 2u);
  EXPECT_EQ(plan.areas[0].name, "hall");
  EXPECT_EQ(plan.areas[0].polygon,
            (std::vector<Vec2>{{0, 0}, {6, 0}, {6, 4}, {4, 4}, {4, 1}, {2, 1}, {2, 4}, {0, 4}}));
  // The shorthand is the rectangle's four corners, counter-clockwise from min.
  EXPECT_EQ(plan.areas[1].name, "door");
  EXPECT_EQ(plan.areas[1].polygon, (std::vector<Vec2>{{-3, -1}, {-1, -1}, {-1, 2.5f}, {-3, 2.5f}}));
  ASSERT_EQ(plan.lines.size(), 1u);
  EXPECT_EQ(plan.lines[0].name, "exit");
  EXPECT_EQ(plan.lines[0].from, Vec2(10, 3));
  EXPECT_EQ(plan.lines[0].to, Vec2(10, -3));
  // The scenario keeps it as the file gives it.
  const Scenario scenario = expandScenario(spec);
  ASSERT_TRUE(scenario.measure.has_value());
  EXPECT_EQ(scenario.measure->areas[1].polygon, plan.areas[1].polygon);
  EXPECT_EQ(scenario.measure->lines[0].to, plan.lines[0].to);
}

TEST(ScenarioMeasure, DefaultsAndAbsence) {
  // Only a line: the library's defaults for the rest (0.1 s, a 1 m cut-off, 2 cm pixels).
  const Scenario scenario = parseScenario(withMeasure(R"({"lines": [)" + kGoodLine + "]}"), "m.json");
  ASSERT_TRUE(scenario.measure.has_value());
  EXPECT_DOUBLE_EQ(scenario.measure->interval, 0.1);
  EXPECT_EQ(scenario.measure->voronoiCutOff, 1.0f);
  EXPECT_EQ(scenario.measure->voronoiResolution, 0.02f);
  EXPECT_TRUE(scenario.measure->areas.empty());
  // No key: nothing to measure.
  EXPECT_FALSE(parseScenario(R"({"agents": [{"position": [0, 0]}]})", "m.json").measure.has_value());
}

TEST(ScenarioMeasure, ShapeProblemsAreNamedWhereTheyAreWritten) {
  expectScenarioError(withMeasure("[]"), "/measure", "expected an object, got array");
  expectScenarioError(withMeasure(R"({"intervall": 1, "lines": [)" + kGoodLine + "]}"), "/measure/intervall",
                      "unknown key 'intervall' (did you mean 'interval'?)");
  expectScenarioError(R"({"mesure": {}})", "/mesure", "(did you mean 'measure'?)");
  expectScenarioError(withMeasure(R"({"areas": [{"name": "a", "min": [0, 0], "max": [1, 1], "colour": 1}]})"),
                      "/measure/areas/0/colour", "unknown key 'colour'");
  expectScenarioError(withMeasure(R"({"areas": [{"min": [0, 0], "max": [1, 1]}]})"), "/measure/areas/0",
                      "missing required key 'name'");
  expectScenarioError(withMeasure(R"({"areas": [{"name": "a"}]})"), "/measure/areas/0",
                      "needs a shape: \"polygon\"");
  expectScenarioError(
      withMeasure(R"({"areas": [{"name": "a", "polygon": [[0, 0], [1, 0], [0, 1]], "min": [0, 0]}]})"),
      "/measure/areas/0", "has both 'polygon' and 'min'/'max'");
  expectScenarioError(withMeasure(R"({"areas": [{"name": "a", "min": [0, 0]}]})"), "/measure/areas/0",
                      "missing required key 'max'");
  expectScenarioError(withMeasure(R"({"areas": [{"name": "a", "min": [0, 0], "max": [2, 0]}]})"),
                      "/measure/areas/0/max",
                      "must be above min in both coordinates, got min [0, 0] and max [2, 0]");
  expectScenarioError(withMeasure(R"({"areas": [{"name": "a", "polygon": [[0, 0], [1, 0], [0]]}]})"),
                      "/measure/areas/0/polygon/2", "expected an array of 2 numbers");
  expectScenarioError(withMeasure(R"({"lines": [{"name": "l", "from": [0, 0]}]})"), "/measure/lines/0",
                      "missing required key 'to'");
  expectScenarioError(withMeasure(R"({"lines": [{"name": 7, "from": [0, 0], "to": [1, 0]}]})"),
                      "/measure/lines/0/name", "expected a string");
}

TEST(ScenarioMeasure, ValueProblemsAreNamedWhereTheyAreWritten) {
  expectScenarioError(withMeasure("{}"), "/measure",
                      "gives no areas and no lines: there is nothing to measure");
  expectScenarioError(withMeasure(R"({"interval": 0, "lines": [)" + kGoodLine + "]}"), "/measure/interval",
                      "measurement interval must be a positive number of seconds, got 0");
  expectScenarioError(withMeasure(R"({"voronoiCutOff": -1, "lines": [)" + kGoodLine + "]}"),
                      "/measure/voronoiCutOff", "voronoiCutOff must be a positive number");
  expectScenarioError(withMeasure(R"({"voronoiResolution": 0.5, "lines": [)" + kGoodLine + "]}"),
                      "/measure/voronoiResolution", "is too coarse for voronoiCutOff 1 m");
  // Coordinates: the corners where they are written, a polygon's vertex by its number.
  expectScenarioError(withMeasure(R"({"areas": [{"name": "a", "min": [-2e6, 0], "max": [1, 1]}]})"),
                      "/measure/areas/0/min/0", "(the coordinate limit), got -2e6");
  expectScenarioError(withMeasure(R"({"areas": [{"name": "a", "polygon": [[0, 0], [1, 3e6], [0, 1]]}]})"),
                      "/measure/areas/0/polygon/1/1", "(the coordinate limit)");
  expectScenarioError(withMeasure(R"({"lines": [{"name": "l", "from": [0, 0], "to": [1, 5e6]}]})"),
                      "/measure/lines/0/to/1", "(the coordinate limit)");
  // The polygon's own rules (checkMeasurementPlan), at the area.
  expectScenarioError(
      withMeasure(R"({"areas": [{"name": "bow", "polygon": [[0, 0], [4, 4], [4, 0], [0, 2]]}]})"),
      "/measure/areas/0", "measurement area \"bow\" is not simple: edge 0 meets edge 2");
  expectScenarioError(withMeasure(R"({"areas": [{"name": "two", "polygon": [[0, 0], [2, 2]]}]})"),
                      "/measure/areas/0", "a polygon needs at least 3");
  expectScenarioError(withMeasure(R"({"areas": [{"name": "dot", "min": [0, 0], "max": [0.1, 0.1]}]})"),
                      "/measure/areas/0", "covers only 25 pixels");
  expectScenarioError(withMeasure(R"({"areas": [{"name": "", "min": [0, 0], "max": [1, 1]}]})"),
                      "/measure/areas/0/name", "must not be empty");
  // Names tell the results apart: the second of a pair is refused.
  expectScenarioError(withMeasure(R"({"areas": [)" + kGoodArea + "," + kGoodArea + "]}"),
                      "/measure/areas/1/name", "repeats the name of area 0, \"a\"");
  expectScenarioError(withMeasure(R"({"lines": [)" + kGoodLine + "," + kGoodLine + "]}"),
                      "/measure/lines/1/name", "repeats the name of line 0, \"l\"");
  // An area and a line may share a name.
  EXPECT_EQ(scenarioErrorFor(withMeasure(R"({"areas": [)" + kGoodArea + R"(], "lines": [{"name": "a",
                "from": [0, 0], "to": [1, 0]}]})"),
                             "ok.json"),
            "");
  expectScenarioError(withMeasure(R"({"lines": [{"name": "l", "from": [1, 1], "to": [1, 1]}]})"),
                      "/measure/lines/0", "measurement line \"l\" has zero length");
}

TEST(ScenarioMeasure, ASpecBuiltInCodeIsCheckedAlike) {
  ScenarioSpec spec;
  spec.name = "code";
  spec.measure = MeasurementPlan{};
  spec.measure->lines.push_back(MeasurementLine{"gate", Vec2(0, 0), Vec2(0, 1)});
  spec.measure->areas.push_back(MeasurementArea{"flat", {{0, 0}, {1, 0}, {2, 0}}});
  try {
    validateScenarioSpec(spec);
    ADD_FAILURE() << "a flat area was accepted";
  } catch (const ScenarioError& e) {
    EXPECT_THAT(e.what(), StartsWith("code: /measure/areas/0: "));
    EXPECT_THAT(e.what(), HasSubstr("has no area"));
  }
  spec.measure->areas.clear();
  EXPECT_NO_THROW(validateScenarioSpec(spec));
  EXPECT_EQ(expandScenario(spec).measure->lines[0].name, "gate");
}

TEST(ScenarioMeasure, A3dFileIsRefused) {
  try {
    parseScenario3(R"({"dimensions": 3, "agents": [{"position": [0, 0, 0]}],
                       "measure": {"lines": [{"name": "l", "from": [0, 0], "to": [1, 0]}]}})",
                   "drones.json");
    ADD_FAILURE() << "a 3D file with measurement areas was accepted";
  } catch (const ScenarioError& e) {
    EXPECT_THAT(e.what(), StartsWith("drones.json: /measure: "));
    EXPECT_THAT(e.what(), HasSubstr("measurement areas and lines are planar"));
  }
}

}  // namespace
}  // namespace crowd
