// What the built-in scenarios share: their time steps, the step budget of a walk, the
// coordinate-limit check, lattices, and the builders of the steering built-ins
// (steering_builtins.cpp) and every other family, which the table in builtin_table.cpp lists.
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include <crowd/scenario.hpp>

#include "geometry/geometry.hpp"
#include "params/number_text.hpp"
#include "scenario/group_generation.hpp"

namespace crowd::builtin_detail {

// circle and random keep RVO2's Circle time step, so they are RVO2's set-ups (and the
// benchmark's). The flows use a shorter step: at 0.25 s an agent at maxSpeed moves a third of
// its radius per step, and in dense flows ORCA then lets neighbours overlap by up to a few
// percent; at 0.1 s the crossing and corridor run without any contact.
inline constexpr float kRvo2TimeStep = 0.25f;
inline constexpr float kFlowTimeStep = 0.1f;

/// Refuses a layout that reaches beyond the coordinate limit, before any agent is made: large
/// counts spread a built-in over a wide area (a circle of 2 million agents has radius 1.6e6).
inline void requireWithinCoordinateLimit(const Scenario& scenario, std::size_t count, double farthest) {
  if (farthest <= static_cast<double>(limits::kCoordinate.max)) return;
  throw ScenarioError(scenario.name + ": agents: " + std::to_string(count) + " agents reach coordinates of " +
                      formatNumber(farthest) + ", but coordinates " +
                      limitProblem(farthest, limits::kCoordinate) + "; use fewer agents");
}

/// Steps for an agent at `speed` to walk `distance`, times `slack` for the detours and waits
/// that avoiding others costs, plus 200 steps to settle.
inline std::int64_t stepsToWalk(const Scenario& scenario, double distance, double slack = 1.3,
                                double speed = static_cast<double>(AgentParams{}.prefSpeed)) {
  const double stepLength = speed * scenario.timeStep;
  return static_cast<std::int64_t>(std::ceil(slack * distance / stepLength)) + 200;
}

inline std::size_t ceilDiv(std::size_t a, std::size_t b) {
  return (a + b - 1) / b;
}

/// Columns of the most nearly square grid of `count` cells (rows = ceilDiv(count, columns)).
inline std::size_t squareColumns(std::size_t count) {
  return count == 0 ? 1 : static_cast<std::size_t>(std::ceil(std::sqrt(static_cast<double>(count))));
}

/// Point `k` of a square lattice of `columns` x `rows` points `spacing` apart, centred on the
/// origin and filled row by row.
inline Point centredLatticePoint(std::size_t k, std::size_t columns, std::size_t rows, double spacing) {
  const double column = static_cast<double>(k % columns) - 0.5 * static_cast<double>(columns - 1);
  const double row = static_cast<double>(k / columns) - 0.5 * static_cast<double>(rows - 1);
  return Point{column * spacing, row * spacing};
}

/// Point `k` of that lattice, shaken by up to `jitter` in each axis (x drawn first).
inline Point jitteredLatticePoint(std::size_t k, std::size_t columns, std::size_t rows, double spacing,
                                  double jitter, scenario_detail::ScenarioRandom& random) {
  const Point slot = centredLatticePoint(k, columns, rows, spacing);
  const double jitterX = random.between(-jitter, jitter);
  const double jitterY = random.between(-jitter, jitter);
  return Point{slot.x + jitterX, slot.y + jitterY};
}

/// A solid (counter-clockwise) axis-aligned rectangle.
inline std::vector<Vec2> solidRectangle(Point min, Point max) {
  return {toVec2(min), toVec2(Point{max.x, min.y}), toVec2(max), toVec2(Point{min.x, max.y})};
}

/// The walls, `thickness` thick, of the square room [-half, half]^2, with a door `doorWidth` wide
/// in the middle of its east wall (x = half).
inline void addRoomWithEastDoor(Scenario& scenario, double half, double thickness, double doorWidth) {
  const double t = thickness;
  const double door = 0.5 * doorWidth;
  scenario.obstacles.push_back(solidRectangle(Point{-half - t, -half - t}, Point{half + t, -half}));
  scenario.obstacles.push_back(solidRectangle(Point{-half - t, half}, Point{half + t, half + t}));
  scenario.obstacles.push_back(solidRectangle(Point{-half - t, -half}, Point{-half, half}));
  scenario.obstacles.push_back(solidRectangle(Point{half, -half}, Point{half + t, -door}));
  scenario.obstacles.push_back(solidRectangle(Point{half, door}, Point{half + t, half}));
}

// The built-ins' builders, by family, as the table (builtin_table.cpp) lists them.
void buildCircle(Scenario& scenario, std::size_t count);  // orca_builtins.cpp
void buildCrossing(Scenario& scenario, std::size_t count);
void buildCorridor(Scenario& scenario, std::size_t count);
void buildBottleneck(Scenario& scenario, std::size_t count);
void buildRandom(Scenario& scenario, std::size_t count);
void buildEvacuation(Scenario& scenario, std::size_t count);  // navigation_builtins.cpp
void buildMaze(Scenario& scenario, std::size_t count);
// steering_builtins.cpp, lanes_builtin.cpp:
void buildPursuit(Scenario& scenario, std::size_t count);
void buildPathLoop(Scenario& scenario, std::size_t count);
void buildForest(Scenario& scenario, std::size_t count);
void buildMix(Scenario& scenario, std::size_t count);
void buildLanes(Scenario& scenario, std::size_t count);
void buildWalkway(Scenario& scenario, std::size_t count);  // pedestrian_builtins.cpp
void buildDoorway(Scenario& scenario, std::size_t count);

}  // namespace crowd::builtin_detail
