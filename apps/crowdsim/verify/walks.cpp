// The shared set-ups of walks.hpp.
#include "walks.hpp"

#include <algorithm>
#include <cmath>

namespace crowd::cli::verify {

double corridorTime(const Settings& settings, Model model, float speed, float length, float zoneFactor) {
  // 2 m wide; the person starts 1 m before the start line (JuPedSim's RiMEA 1: to reach its
  // speed), the corridor ends 2 m after the finish line.
  const float end = length + 2.0f;
  Floor floor;
  addSpace(floor, Vec2(-2.0f, 0.0f), Vec2(end, 2.0f));
  addWall(floor, Vec2(-2.0f, 0.0f), Vec2(end, 0.0f));
  addWall(floor, Vec2(end, 2.0f), Vec2(-2.0f, 2.0f));
  addWall(floor, Vec2(-2.0f, 2.0f), Vec2(-2.0f, 0.0f));
  floor.exits.push_back(Segment{Vec2(end, 2.0f), Vec2(end, 0.0f)});
  if (zoneFactor != 1.0f)
    floor.speedZones.push_back(SpeedZone{Vec2(0.0f, 0.0f), Vec2(length, 2.0f), zoneFactor});
  Person person;
  person.position = Vec2(-1.0f, 1.0f);
  person.prefVelocity = Vec2(speed, 0.0f);
  person.prefSpeed = speed;
  FloorRun run(floor, settings, model, 1, {person});
  MeasurementPlan plan;
  plan.lines = {MeasurementLine{"start", Vec2(0.0f, 2.0f), Vec2(0.0f, 0.0f)},
                MeasurementLine{"finish", Vec2(length, 2.0f), Vec2(length, 0.0f)}};
  run.measure(plan);
  run.runUntilEmpty(3.0 * length / speed + 10.0);
  const std::vector<LineSeries>& lines = run.measurements().lines();
  if (lines[0].crossings.empty() || lines[1].crossings.empty()) return -1.0;
  return lines[1].crossings.front().time - lines[0].crossings.front().time;
}

CornerWalk cornerWalk(const Settings& settings, Model model, std::uint64_t seed, std::size_t people,
                      bool leftTurn, float secondArm, double limit) {
  // Drawn for a left turn: the first arm [0, 12] x [0, 2], the second [10, 12] x [2, 2 + arm];
  // a right turn mirrors y.
  const float s = leftTurn ? 1.0f : -1.0f;
  const auto at = [s](float x, float y) { return Vec2(x, s * y); };
  const auto box = [&](Vec2 p, Vec2 q) {
    return std::pair{Vec2(std::min(p.x, q.x), std::min(p.y, q.y)),
                     Vec2(std::max(p.x, q.x), std::max(p.y, q.y))};
  };
  const float top = 2.0f + secondArm;
  Floor floor;
  for (const auto& [lo, hi] : {box(at(0, 0), at(12, 2)), box(at(10, 2), at(12, top))})
    addSpace(floor, lo, hi);
  // Walls traced with the corridor on their left; a mirror turns that round.
  const auto wall = [&](Vec2 a, Vec2 b) {
    if (leftTurn)
      addWall(floor, a, b);
    else
      addWall(floor, b, a);
  };
  wall(at(0, 0), at(12, 0));
  wall(at(12, 0), at(12, top));
  wall(at(0, 2), at(0, 0));
  // The inside of the L is one solid block, so that its corner is a single convex vertex.
  const auto [blockLo, blockHi] = box(at(-kWallThickness, 2), at(10, top));
  floor.walls.push_back(rectangle(blockLo, blockHi));
  // The turn: the corner square's diagonal, from the inner corner to the outer one, so that the
  // walkers spread over the corner as they round it.
  const Segment turn = leftTurn ? Segment{at(10, 2), at(12, 0)} : Segment{at(12, 0), at(10, 2)};
  const Segment exit = leftTurn ? Segment{at(10, top), at(12, top)} : Segment{at(12, top), at(10, top)};
  floor.exits.push_back(exit);
  const auto [startLo, startHi] = box(at(0.25f, 0.25f), at(5.75f, 1.75f));
  const std::vector<Vec2> places = scatter(startLo, startHi, people, kBodySpacing, seed);
  std::vector<Person> crowd(places.size());
  for (std::size_t i = 0; i < places.size(); ++i) {
    crowd[i].position = places[i];
    crowd[i].route = {turn, exit};
  }
  FloorRun run(floor, settings, model, seed, crowd);
  CornerWalk walk;
  walk.people = people;
  run.runUntilEmpty(limit);
  walk.out = run.leftCount();
  walk.throughWall = run.strayedCount();
  walk.lastOut = run.lastExitTime();
  return walk;
}

Result judgedTime(double t, double low, double high, int digits) {
  Result result;
  result.values = {{"time_s", t}};
  result.outcome = t >= low && t <= high ? Outcome::Pass : Outcome::Fail;
  result.measured = t < 0 ? "never arrived" : fixed(t, digits) + " s";
  return result;
}

Result cornerTest(const Settings& settings, Model model, bool leftTurn) {
  std::vector<double> lastOut;
  std::vector<bool> passed;
  std::size_t fewestOut = SIZE_MAX, walls = 0;
  for (const std::uint64_t seed : seedList(settings)) {
    const CornerWalk walk = cornerWalk(settings, model, seed, 20, leftTurn, 10.0f, 120.0);
    passed.push_back(walk.out == walk.people && walk.throughWall == 0);
    fewestOut = std::min(fewestOut, walk.out);
    walls += walk.throughWall;
    if (walk.lastOut >= 0) lastOut.push_back(walk.lastOut);
  }
  Result result;
  result.outcome = allPassed(passed);
  result.measured = std::to_string(fewestOut) + "/20 round, " + std::to_string(walls) +
                    " through a wall, last out " + rangeText(lastOut, 1) + " s";
  result.values = {{"fewest_round", static_cast<double>(fewestOut)},
                   {"through_wall", static_cast<double>(walls)}};
  return result;
}

Floor doorRoom(float depth, float width, float door) {
  Floor floor;
  const Door opening{0.5f * (width - door), 0.5f * (width + door)};
  addRoom(floor, Vec2(0.0f, 0.0f), Vec2(depth, width), RoomDoors{{}, {opening}, {}, {}});
  floor.exits.push_back(doorExit(opening, Vec2(1.0f, 0.0f), depth));
  return floor;
}

std::vector<Person> roomCrowd(float depth, float width, const Floor& floor, std::size_t count,
                              std::uint64_t seed) {
  const std::vector<Vec2> places =
      scatter(Vec2(0.25f, 0.25f), Vec2(depth - 0.5f, width - 0.25f), count, kBodySpacing, seed);
  std::vector<Person> crowd(places.size());
  for (std::size_t i = 0; i < places.size(); ++i) {
    crowd[i].position = places[i];
    crowd[i].route = {floor.exits[0]};
  }
  return crowd;
}

float roomDepthFor(std::size_t count, float width, double density) {
  return static_cast<float>(std::ceil(static_cast<double>(count) / (density * (width - 0.5)))) + 1.0f;
}

}  // namespace crowd::cli::verify
