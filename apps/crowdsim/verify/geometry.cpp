// Floors, walls with doors, random crowds without overlaps, and the scenario file they make.
#include "geometry.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <utility>

namespace crowd::cli::verify {

Vec2 forwardOf(const Segment& s) {
  return normalize(perpLeft(s.b - s.a));
}

float pastBy(const Segment& s, Vec2 p) {
  return dot(p - s.a, forwardOf(s));
}

bool crossesForward(const Segment& s, Vec2 p, Vec2 q) {
  const float before = pastBy(s, p);
  const float after = pastBy(s, q);
  if (!(before <= 0.0f && after > 0.0f)) return false;
  // Where the move meets the line, measured along the segment.
  const Vec2 hit = p + (q - p) * (before / (before - after));
  const Vec2 along = s.b - s.a;
  const float t = dot(hit - s.a, along) / absSq(along);
  return t >= 0.0f && t <= 1.0f;
}

bool Floor::contains(Vec2 p) const {
  for (const std::vector<Vec2>& space : spaces) {
    // Every space is an axis-aligned rectangle (addSpace), so its bounds decide.
    const Vec2 lo = space[0];
    const Vec2 hi = space[2];
    if (p.x >= lo.x && p.x <= hi.x && p.y >= lo.y && p.y <= hi.y) return true;
  }
  return false;
}

std::vector<Vec2> rectangle(Vec2 min, Vec2 max) {
  return {min, Vec2(max.x, min.y), max, Vec2(min.x, max.y)};
}

void addSpace(Floor& floor, Vec2 min, Vec2 max) {
  floor.spaces.push_back(rectangle(min, max));
}

namespace {

// The axis coordinate of p along an axis-aligned wall running along d.
float axisOf(Vec2 p, Vec2 d) {
  return std::fabs(d.x) > 0.5f ? p.x : p.y;
}

void addSolid(Floor& floor, std::vector<Vec2> polygon) {
  float twiceArea = 0.0f;
  for (std::size_t i = 0; i < polygon.size(); ++i)
    twiceArea += det(polygon[i], polygon[(i + 1) % polygon.size()]);
  if (twiceArea < 0.0f) std::reverse(polygon.begin(), polygon.end());
  floor.walls.push_back(std::move(polygon));
}

}  // namespace

void addWall(Floor& floor, Vec2 a, Vec2 b, const std::vector<Door>& doors, float thickness) {
  const float wallLength = length(b - a);
  const Vec2 d = (b - a) * (1.0f / wallLength);
  const Vec2 right(d.y, -d.x);
  // Doors as stretches of the wall's own length, from a.
  const float direction = axisOf(d, d) > 0.0f ? 1.0f : -1.0f;
  std::vector<std::pair<float, float>> gaps;
  for (const Door& door : doors) {
    const float s0 = (door.from - axisOf(a, d)) * direction;
    const float s1 = (door.to - axisOf(a, d)) * direction;
    gaps.emplace_back(std::min(s0, s1), std::max(s0, s1));
    const Vec2 p0 = a + d * std::min(s0, s1);
    const Vec2 p1 = a + d * std::max(s0, s1) + right * thickness;
    addSpace(floor, Vec2(std::min(p0.x, p1.x), std::min(p0.y, p1.y)),
             Vec2(std::max(p0.x, p1.x), std::max(p0.y, p1.y)));
  }
  std::sort(gaps.begin(), gaps.end());
  float start = 0.0f;
  const auto solid = [&](float s0, float s1) {
    if (s1 - s0 < 1e-4f) return;
    addSolid(floor, {a + d * s0, a + d * s1, a + d * s1 + right * thickness, a + d * s0 + right * thickness});
  };
  for (const auto& [from, to] : gaps) {
    solid(start, std::max(start, from));
    start = std::max(start, to);
  }
  solid(start, wallLength);
}

void addRoom(Floor& floor, Vec2 min, Vec2 max, const RoomDoors& doors) {
  addSpace(floor, min, max);
  addWall(floor, min, Vec2(max.x, min.y), doors.bottom);
  addWall(floor, Vec2(max.x, min.y), max, doors.right);
  addWall(floor, max, Vec2(min.x, max.y), doors.top);
  addWall(floor, Vec2(min.x, max.y), min, doors.left);
}

Segment doorGate(Door door, Vec2 side, float at) {
  const float half = 0.5f * (door.to - door.from);
  const float middle = 0.5f * (door.from + door.to);
  const Vec2 centre = std::fabs(side.x) > 0.5f ? Vec2(at, middle) : Vec2(middle, at);
  const Vec2 along(side.y, -side.x);  // perpLeft(along) is `side`.
  return Segment{centre - along * half, centre + along * half};
}

Segment doorExit(Door door, Vec2 side, float at, float thickness) {
  return doorGate(door, side, at + thickness * (side.x + side.y));
}

namespace {

// SplitMix64: the same draws on every platform and standard library.
struct Draws {
  std::uint64_t state;
  std::uint64_t next() {
    std::uint64_t z = (state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  double uniform() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }
};

}  // namespace

std::vector<Vec2> scatter(Vec2 min, Vec2 max, std::size_t count, float spacing, std::uint64_t seed) {
  Draws draws{seed * 0x2545F4914F6CDD1Dull + 17};
  std::vector<Vec2> points;
  points.reserve(count);
  const auto draw = [&] {
    return Vec2(min.x + static_cast<float>(draws.uniform()) * (max.x - min.x),
                min.y + static_cast<float>(draws.uniform()) * (max.y - min.y));
  };
  if (!(spacing > 0.0f)) {
    while (points.size() < count) points.push_back(draw());
    return points;
  }
  // Dart throwing over a grid of cells one spacing wide: a candidate is checked against the
  // points of the 3 x 3 cells round it.
  const int columns = std::max(1, static_cast<int>(std::ceil((max.x - min.x) / spacing)));
  const int rows = std::max(1, static_cast<int>(std::ceil((max.y - min.y) / spacing)));
  std::vector<std::vector<int>> cells(static_cast<std::size_t>(columns) * static_cast<std::size_t>(rows));
  const auto cellOf = [&](Vec2 p, int& cx, int& cy) {
    cx = std::clamp(static_cast<int>((p.x - min.x) / spacing), 0, columns - 1);
    cy = std::clamp(static_cast<int>((p.y - min.y) / spacing), 0, rows - 1);
  };
  const std::size_t attempts = 5000 * count + 1000;
  for (std::size_t attempt = 0; attempt < attempts && points.size() < count; ++attempt) {
    const Vec2 p = draw();
    int cx = 0, cy = 0;
    cellOf(p, cx, cy);
    bool clear = true;
    for (int y = std::max(0, cy - 1); y <= std::min(rows - 1, cy + 1) && clear; ++y) {
      for (int x = std::max(0, cx - 1); x <= std::min(columns - 1, cx + 1) && clear; ++x) {
        for (const int other : cells[static_cast<std::size_t>(y * columns + x)]) {
          if (absSq(points[static_cast<std::size_t>(other)] - p) < spacing * spacing) {
            clear = false;
            break;
          }
        }
      }
    }
    if (!clear) continue;
    cells[static_cast<std::size_t>(cy * columns + cx)].push_back(static_cast<int>(points.size()));
    points.push_back(p);
  }
  if (points.size() < count) {
    throw std::runtime_error("cannot place " + std::to_string(count) + " people " + std::to_string(spacing) +
                             " m apart in a " + std::to_string(max.x - min.x) + " x " +
                             std::to_string(max.y - min.y) + " m box");
  }
  return points;
}

nlohmann::json scenarioDocument(const Floor& floor, Model model, std::uint64_t seed, nlohmann::json agents) {
  nlohmann::json defaults = {{"model", model == Model::Csm           ? "csm"
                                       : model == Model::SocialForce ? "socialforce"
                                                                     : "orca"}};
  if (model == Model::OrcaDensity) defaults["densitySpeed"] = true;
  nlohmann::json obstacles = nlohmann::json::array();
  for (const std::vector<Vec2>& wall : floor.walls) {
    nlohmann::json polygon = nlohmann::json::array();
    for (const Vec2 v : wall) polygon.push_back({v.x, v.y});
    obstacles.push_back(std::move(polygon));
  }
  nlohmann::json document = {{"preset", "pedestrian"},
                             {"timeStep", modelTimeStep(model)},
                             {"seed", seed},
                             {"agentDefaults", std::move(defaults)},
                             {"obstacles", std::move(obstacles)},
                             {"agents", std::move(agents)}};
  if (!floor.speedZones.empty()) {
    nlohmann::json zones = nlohmann::json::array();
    for (const SpeedZone& zone : floor.speedZones) {
      zones.push_back(
          {{"min", {zone.min.x, zone.min.y}}, {"max", {zone.max.x, zone.max.y}}, {"factor", zone.factor}});
    }
    document["speedZones"] = std::move(zones);
  }
  if (floor.periodicX.on()) document["periodic"] = {{"x", {floor.periodicX.from, floor.periodicX.to}}};
  return document;
}

}  // namespace crowd::cli::verify
