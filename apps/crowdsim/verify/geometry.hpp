// The floors the verification tests walk on, written as their guidelines draw them: rooms and
// corridors (where people may stand), walls with door openings (solid obstacle polygons of a
// real wall's thickness, so that a body pushed against one meets a face, not a line), and exits
// (lines that a person crossing has left). A floor becomes a scenario file's "obstacles"; people
// are listed as the file's "agents", placed at random without overlaps where the guideline
// fills a room.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include <crowd/kernels/vec2.hpp>
#include <crowd/simulator_config.hpp>

#include "verify_test.hpp"

namespace crowd::cli::verify {

/// A directed line. Crossing it "forward" means to its left (the left normal of b - a), as a
/// MeasurementLine counts crossings.
struct Segment {
  Vec2 a{0.0f, 0.0f};
  Vec2 b{0.0f, 0.0f};
};
/// The unit left normal of s: the way forward across it.
Vec2 forwardOf(const Segment& s);
/// Signed distance of p from s's line: positive once p is past it (on its left).
float pastBy(const Segment& s, Vec2 p);
/// Whether the move from p to q crosses s forward, between its ends.
bool crossesForward(const Segment& s, Vec2 p, Vec2 q);

/// Walls are as thick as an interior wall: thick enough that a body's centre pushed into one
/// still sees the face it came through.
inline constexpr float kWallThickness = 0.3f;

/// A room off a corridor, and the gate out of it through its door.
struct SideRoom {
  Vec2 min{0.0f, 0.0f};
  Vec2 max{0.0f, 0.0f};
  Segment door;
};

/// An area that scales everyone's desired speed (a scenario's speedZones): stairs on one floor.
struct SpeedZone {
  Vec2 min{0.0f, 0.0f};
  Vec2 max{0.0f, 0.0f};
  float factor = 1.0f;
};

struct Floor {
  std::vector<std::vector<Vec2>> walls;   ///< Solid polygons, counter-clockwise.
  std::vector<std::vector<Vec2>> spaces;  ///< Rooms, corridors and doorways: the floor is their union.
  std::vector<Segment> exits;             ///< Crossing one forward leaves the floor.
  /// Rooms a walker pushed through the wrong door leaves again by that door (floor_run.hpp).
  std::vector<SideRoom> sideRooms;
  std::vector<SpeedZone> speedZones;
  PeriodicRange periodicX{};  ///< Where the floor repeats along x (the scenario's "periodic"); off: nowhere.

  /// Whether p stands on the floor (inside one of the spaces, edges included).
  bool contains(Vec2 p) const;
};

std::vector<Vec2> rectangle(Vec2 min, Vec2 max);  ///< Counter-clockwise.
void addSpace(Floor& floor, Vec2 min, Vec2 max);

/// An opening in a wall: the stretch [from, to] of the wall's axis coordinate (x for a
/// horizontal wall, y for a vertical one), in world coordinates.
struct Door {
  float from;
  float to;
};

/// A straight, axis-aligned wall from a to b, solid on its right-hand side (outside a room
/// traced counter-clockwise), `thickness` thick, with `doors` left open. Each doorway through
/// the wall's thickness is added to the floor's spaces.
void addWall(Floor& floor, Vec2 a, Vec2 b, const std::vector<Door>& doors = {},
             float thickness = kWallThickness);

/// Doors in each side of a rectangular room.
struct RoomDoors {
  std::vector<Door> bottom, right, top, left;
};
/// A room [min, max]: its space and the four walls round it (outside it), with doors.
void addRoom(Floor& floor, Vec2 min, Vec2 max, const RoomDoors& doors = {});

/// The exit through a door in a wall: the door's outer face, crossed outwards. `side` is the
/// wall's outward normal (one of (1,0), (-1,0), (0,1), (0,-1)), `at` the wall's inner face
/// coordinate.
Segment doorExit(Door door, Vec2 side, float at, float thickness = kWallThickness);
/// The same line as a gate into the doorway (its inner face), crossed outwards.
Segment doorGate(Door door, Vec2 side, float at);

/// `count` points in the box [min, max], no two closer than `spacing`, drawn with `seed`
/// (uniform where spacing is 0): a crowd placed at random without overlapping bodies. Throws
/// std::runtime_error when they do not fit.
std::vector<Vec2> scatter(Vec2 min, Vec2 max, std::size_t count, float spacing, std::uint64_t seed);

/// The closest two pedestrians of radius 0.2 may stand when scattered: touching, and a
/// centimetre apart so that no model starts from a contact.
inline constexpr float kBodySpacing = 0.41f;

/// A scenario file for `floor`: the pedestrian preset, `model`'s keys and step in agentDefaults,
/// the walls as obstacles, the speed zones, and `agents` (scenario-format agent objects) listed.
nlohmann::json scenarioDocument(const Floor& floor, Model model, std::uint64_t seed, nlohmann::json agents);

}  // namespace crowd::cli::verify
