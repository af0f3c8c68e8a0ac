// Set-ups several tests share: one person timed along a corridor (RiMEA 1, NIST 2.1), a group
// round an L-shaped corner (RiMEA 6, NIST 2.3), and a room that empties through one door in the
// middle of a wall (the bottleneck tests, the crush, NIST 5.2).
#pragma once

#include <cstdint>
#include <vector>

#include "floor_run.hpp"
#include "geometry.hpp"
#include "verify_test.hpp"

namespace crowd::cli::verify {

/// One person with a fixed preferred velocity of `speed` along a 2 m wide corridor, from 1 m
/// before a start line to the line `length` further on: the seconds between the two crossings
/// (each interpolated between observations), or -1 when it never reached the second.
/// `zoneFactor` other than 1: a speed zone with that factor covers the stretch between the lines
/// (a stair, as RiMEA 2 and 3 have it on one floor).
double corridorTime(const Settings& settings, Model model, float speed, float length,
                    float zoneFactor = 1.0f);

/// A corridor time judged: PASS within [low, high] s, FAIL outside or when it never arrived
/// (t < 0); the time shown with `digits` decimals.
Result judgedTime(double t, double low, double high, int digits);

/// What happened to a group walking round a corner.
struct CornerWalk {
  std::size_t people = 0;
  std::size_t out = 0;          ///< Left by the exit at the end of the second arm.
  std::size_t throughWall = 0;  ///< Centres that left the corridor other than by the exit.
  double lastOut = -1;          ///< s; -1 when not everyone got out.
};
/// `people` persons placed at random in the first 6 m of a 2 m wide arm walk to its end, turn
/// (left or right) into a second 2 m wide arm `secondArm` long and leave at its end. The first
/// arm is 12 m long and the turn fills its last 2 m (RiMEA 6 as JuPedSim draws it).
CornerWalk cornerWalk(const Settings& settings, Model model, std::uint64_t seed, std::size_t people,
                      bool leftTurn, float secondArm, double limit);

/// RiMEA 6 (`leftTurn`) and NIST 2.3 (a right turn): 20 persons round a corner of 2 m wide arms
/// (12 m, then 10 m); PASS when, with every seed, all got round and no centre crossed a wall.
Result cornerTest(const Settings& settings, Model model, bool leftTurn);

/// A room [0, depth] x [0, width] with one door `door` wide centred in its right wall (x = depth),
/// walls kWallThickness thick; its one exit is the door's outer face.
Floor doorRoom(float depth, float width, float door);
/// `count` people scattered in the room (a body's margin from the walls, 0.5 m clear of the
/// door's wall), each heading for the exit.
std::vector<Person> roomCrowd(float depth, float width, const Floor& floor, std::size_t count,
                              std::uint64_t seed);
/// Depth of a `width` m wide room holding `count` people at `density` P/m^2 (and a metre more).
float roomDepthFor(std::size_t count, float width, double density);

}  // namespace crowd::cli::verify
