// The RiMEA tests about a crowd's flow through a floor's narrow parts: bottlenecks in series
// (test 12) and a large crowd round a corner (test 15).
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "floor_run.hpp"
#include "walks.hpp"

namespace crowd::cli::verify {
namespace {

// JuPedSim's flow at a line: (N - 1) / (t_last - t_first) over the forward crossings.
double lineFlow(const LineSeries& line) {
  std::vector<double> times;
  for (const LineCrossing& c : line.crossings) {
    if (c.direction > 0) times.push_back(c.time);
  }
  if (times.size() < 2) return 0.0;
  return static_cast<double>(times.size() - 1) / (times.back() - times.front());
}

}  // namespace

// ---- RiMEA 12: effect of bottlenecks ---------------------------------------------------------

// Room 1 [0, 10]^2, a 1 m wide corridor 5 m long, room 2 [15, 25] x [0, 10], and a second 1 m
// corridor 3 m long out of it (JuPedSim's double bottleneck). 150 persons start in room 1's left
// half. The guideline expects the jam in room 1 only: the second bottleneck passes what the
// first lets through. JuPedSim's check: J(x = 25) - J(x = 10) >= -0.05 /s.
Result bottlenecksInSeries(const Settings& settings, Model model) {
  const float t = kWallThickness;
  const Door door{4.5f, 5.5f};
  Floor floor;
  addRoom(floor, Vec2(0.0f, 0.0f), Vec2(10.0f, 10.0f), RoomDoors{{}, {door}, {}, {}});
  addRoom(floor, Vec2(15.0f, 0.0f), Vec2(25.0f, 10.0f), RoomDoors{{}, {door}, {}, {door}});
  for (const auto& [from, to] : {std::pair{10.0f + t, 15.0f - t}, std::pair{25.0f + t, 28.0f}}) {
    addSpace(floor, Vec2(from, 4.5f), Vec2(to, 5.5f));
    addWall(floor, Vec2(from, 4.5f), Vec2(to, 4.5f));
    addWall(floor, Vec2(to, 5.5f), Vec2(from, 5.5f));
  }
  floor.exits.push_back(Segment{Vec2(28.0f, 5.5f), Vec2(28.0f, 4.5f)});
  const Route route{doorGate(door, Vec2(1.0f, 0.0f), 10.0f), doorGate(door, Vec2(1.0f, 0.0f), 25.0f),
                    floor.exits[0]};
  std::vector<double> firsts, seconds, differences;
  std::vector<bool> passed;
  bool stuck = false;
  for (const std::uint64_t seed : seedList(settings)) {
    const std::vector<Vec2> places = scatter(Vec2(0.25f, 0.25f), Vec2(5.0f, 9.75f), 150, kBodySpacing, seed);
    std::vector<Person> crowd(places.size());
    for (std::size_t i = 0; i < places.size(); ++i) {
      crowd[i].position = places[i];
      crowd[i].route = route;
    }
    FloorRun run(floor, settings, model, seed, crowd);
    MeasurementPlan plan;
    plan.lines = {MeasurementLine{"first", Vec2(10.0f, 5.5f), Vec2(10.0f, 4.5f)},
                  MeasurementLine{"second", Vec2(25.0f, 5.5f), Vec2(25.0f, 4.5f)}};
    run.measure(plan);
    stuck = !run.runUntilEmpty(600.0) || stuck;
    const double first = lineFlow(run.measurements().lines()[0]);
    const double second = lineFlow(run.measurements().lines()[1]);
    firsts.push_back(first);
    seconds.push_back(second);
    differences.push_back(second - first);
    passed.push_back(run.leftCount() == crowd.size() && second - first >= -0.05);
  }
  Result result;
  result.outcome = allPassed(passed);
  result.measured = "J2 - J1 " + rangeText(differences, 2) + " /s (J1 " + rangeText(firsts, 2) + ", J2 " +
                    rangeText(seconds, 2) + ")" + (stuck ? "; some never left" : "");
  result.values = {{"first_flow_per_s", firsts.front()},
                   {"second_flow_per_s", seconds.front()},
                   {"smallest_difference_per_s", *std::min_element(differences.begin(), differences.end())}};
  return result;
}

// ---- RiMEA 15: movement of a large crowd round a corner --------------------------------------

namespace {

constexpr float kCrowdWidth = 6.0f;  // The corridor, as the WBJ suite draws it.
constexpr float kLeg = 10.0f;  // Each leg between the start area and the corner, the corner and the exit.

enum class Shape { Short, Corner, Long };

// The corridor of `shape` with the crowd in its first `start` metres: the time the last leaves.
double crowdWalk(const Settings& settings, Model model, std::uint64_t seed, std::size_t count, float start,
                 Shape shape) {
  const float w = kCrowdWidth;
  Floor floor;
  Route route;
  if (shape == Shape::Corner) {
    const float turnAt = start + kLeg;  // The corner square [turnAt, turnAt + w] x [0, w].
    const float top = w + kLeg;
    addSpace(floor, Vec2(0.0f, 0.0f), Vec2(turnAt + w, w));
    addSpace(floor, Vec2(turnAt, w), Vec2(turnAt + w, top));
    addWall(floor, Vec2(0.0f, 0.0f), Vec2(turnAt + w, 0.0f));
    addWall(floor, Vec2(turnAt + w, 0.0f), Vec2(turnAt + w, top));
    addWall(floor, Vec2(0.0f, w), Vec2(0.0f, 0.0f));
    floor.walls.push_back(rectangle(Vec2(-kWallThickness, w), Vec2(turnAt, top)));
    floor.exits.push_back(Segment{Vec2(turnAt, top), Vec2(turnAt + w, top)});
    // The turn is the corner square's diagonal, inner corner to outer (walks.cpp's corner).
    route = {Segment{Vec2(turnAt, w), Vec2(turnAt + w, 0.0f)}, floor.exits[0]};
  } else {
    // As long as the corner's inner edge (short) or its outer edge (long).
    const float end = start + 2.0f * kLeg + (shape == Shape::Long ? 2.0f * w : 0.0f);
    addSpace(floor, Vec2(0.0f, 0.0f), Vec2(end, w));
    addWall(floor, Vec2(0.0f, 0.0f), Vec2(end, 0.0f));
    addWall(floor, Vec2(end, w), Vec2(0.0f, w));
    addWall(floor, Vec2(0.0f, w), Vec2(0.0f, 0.0f));
    floor.exits.push_back(Segment{Vec2(end, w), Vec2(end, 0.0f)});
    route = {floor.exits[0]};
  }
  const std::vector<Vec2> places =
      scatter(Vec2(0.25f, 0.25f), Vec2(start, w - 0.25f), count, kBodySpacing, seed);
  std::vector<Person> crowd(places.size());
  for (std::size_t i = 0; i < places.size(); ++i) {
    crowd[i].position = places[i];
    crowd[i].route = route;
  }
  FloorRun run(floor, settings, model, seed, crowd);
  run.runUntilEmpty(settings.longForm ? 1200.0 : 400.0);
  return run.lastExitTime();
}

}  // namespace

// Three corridors 6 m wide: one with a right-angled corner, legs of 10 m before and after it;
// straight ones as long as the corner's inner edge and as its outer edge. The same crowd (same
// seed) starts at 2 P/m^2 in each. The guideline: the corner's time lies between the straight
// ones'.
Result largeCrowdCorner(const Settings& settings, Model model) {
  const std::size_t count = settings.longForm ? 500 : 100;
  const float start = static_cast<float>(count) / (2.0f * kCrowdWidth);
  std::vector<double> shorts, corners, longs;
  std::vector<bool> passed;
  bool stuck = false;
  for (const std::uint64_t seed : seedList(settings)) {
    const double shortTime = crowdWalk(settings, model, seed, count, start, Shape::Short);
    const double cornerTime = crowdWalk(settings, model, seed, count, start, Shape::Corner);
    const double longTime = crowdWalk(settings, model, seed, count, start, Shape::Long);
    passed.push_back(shortTime >= 0 && cornerTime >= 0 && longTime >= 0 && shortTime <= cornerTime &&
                     cornerTime <= longTime);
    // A walk that some never finished has no time.
    for (auto [time, times] : {std::pair{shortTime, &shorts}, {cornerTime, &corners}, {longTime, &longs}}) {
      if (time >= 0)
        times->push_back(time);
      else
        stuck = true;
    }
  }
  Result result;
  result.outcome = allPassed(passed);
  result.measured = "short " + rangeText(shorts, 1) + " s, corner " + rangeText(corners, 1) + " s, long " +
                    rangeText(longs, 1) + " s" + (stuck ? "; in some walks not everyone got out" : "");
  if (!shorts.empty() && !corners.empty() && !longs.empty()) {
    result.values = {{"short_s", shorts.front()}, {"corner_s", corners.front()}, {"long_s", longs.front()}};
  }
  return result;
}

}  // namespace crowd::cli::verify
