// Every bound on a scenario or agent value, in one table. The scenario reader, checkAgentParams,
// the built-in scenarios and the command line all check against these, so a value that passes
// one passes all of them and a message always names the same bound.
//
// Why these bounds keep a run's maths finite in float32 (largest float: 3.4e38). With every
// value inside the table:
//   - Two points inside the coordinate limit are at most 2.9e6 apart, so squared distances
//     between agents, goals and obstacle vertices stay below 8.5e12.
//   - Agent-agent ORCA (kernels/orca_agents.hpp) only sees neighbours within neighborDist
//     (<= 1e5). The cut-off centre invTimeHorizon * relativePosition is at most
//     1e4 * 1e5 = 1e9, so |w|^2 <= 1e18; dot(w, p)^2 <= (1e9 * 1e5)^2 = 1e28 and
//     combinedRadius^2 * |w|^2 <= (2e4)^2 * 1e18 = 4e26.
//   - Overlapping agents use the one-step cut-off: combinedRadius * invTimeStep and
//     invTimeStep * relativePosition are at most 2e4 * 1e6 = 2e10; squared, 4e20.
//   - Agent-obstacle ORCA (kernels/orca_obstacles.hpp): the query range
//     (timeHorizonObst * maxSpeed + radius)^2 <= (1e6 * 1e4 + 1e4)^2 ~ 1e20; the cut-off
//     centres invTimeHorizonObst * (vertex - position) are at most 1e4 * 2.9e6 = 2.9e10 (and
//     3e13 for an agent that has drifted 3e9 away), squared below 1e27.
//   - The linear program (kernels/linear_program.hpp) works inside the max-speed circle
//     (<= 1e4) with line points of at most |velocity| + |u| / 2 ~ 2e10; its squares stay
//     below 1e21, and t = numerator / denominator with |denominator| > 1e-5 below 1e16.
//   - An agent moves at most maxSpeed * timeStep = 1e4 * 1e3 = 1e7 per step, so positions
//     need over 1e31 steps to leave float range; goalRadius^2 <= 1e12.
// Every intermediate stays ten orders of magnitude below float max: the bounds are generous for
// real crowds (metres and seconds), yet rule out the inputs that used to overflow (radii of
// 1e30, a time step of 1e-45 whose inverse is infinite, vertices at 2e19 whose squares are).
#pragma once

#include <cstdint>
#include <limits>
#include <string>

#include <crowd/kernels/config.hpp>
#include <crowd/kernels/vec2.hpp>
#include <crowd/kernels/vec3.hpp>

namespace crowd {

/// The closed range [min, max] a value must lie in, and the name messages give the bound.
/// Values are compared as the float the simulator stores, so a bound written as 1e-4 accepts
/// the float nearest 0.0001 that a file's "0.0001" becomes.
struct Limit {
  const char* name;  ///< As in "(the radius limit)".
  float min;
  float max;
};

namespace limits {

/// Positions, goals, obstacle vertices, group centres, boxes and goal offsets, per coordinate.
/// Float spacing at 1e6 is 1/16: finer worlds keep their precision nearer the origin.
inline constexpr Limit kCoordinate{"the coordinate limit", -1e6f, 1e6f};
/// Initial and preferred velocities, per component: no agent may go faster than kSpeed.
inline constexpr Limit kVelocity{"the velocity limit", -1e4f, 1e4f};
/// Agent radius.
inline constexpr Limit kRadius{"the radius limit", 0.0f, 1e4f};
/// maxSpeed and prefSpeed.
inline constexpr Limit kSpeed{"the speed limit", 0.0f, 1e4f};
/// neighborDist.
inline constexpr Limit kNeighborDist{"the neighbour distance limit", 0.0f, 1e5f};
/// maxNeighbors: neighbour lists are sized at compile time (kMaxNeighbors).
inline constexpr Limit kNeighborCount{"the neighbour count limit", 0.0f, static_cast<float>(kMaxNeighbors)};
/// timeHorizon and timeHorizonObst: 1 / horizon multiplies distances.
inline constexpr Limit kTimeHorizon{"the time horizon limit", 1e-4f, 1e6f};
/// goalRadius; any negative value means "the agent's radius".
inline constexpr Limit kGoalRadius{"the goal radius limit", -std::numeric_limits<float>::infinity(), 1e6f};
/// Seconds per step: 1 / timeStep multiplies distances when agents overlap.
inline constexpr Limit kTimeStep{"the time step limit", 1e-6f, 1e3f};

/// A speed zone's factor on the desired speed.
inline constexpr Limit kSpeedFactor{"the speed factor limit", 0.0f, 10.0f};
/// An agent's premovement time, seconds into the run.
inline constexpr Limit kStartTime{"the start time limit", 0.0f, 1e7f};
/// Seconds without progress before a navigating agent is re-planned (0: never).
inline constexpr Limit kReplanAfter{"the re-plan time limit", 0.0f, 1e6f};

/// Steering lengths: pathRadius, lookAhead, slowingRadius, wander radius and distance, box
/// length, separation radius.
inline constexpr Limit kSteeringLength{"the steering length limit", 0.0f, 1e5f};
/// A behaviour's weight in a weighted sum (negative weights turn a behaviour round).
inline constexpr Limit kBehaviorWeight{"the behaviour weight limit", -1e3f, 1e3f};
/// maxForce: a velocity change per unit of 1/mass per second.
inline constexpr Limit kForce{"the force limit", 0.0f, 1e6f};
/// mass: dt / mass scales each force.
inline constexpr Limit kMass{"the mass limit", 1e-6f, 1e6f};
/// Wander jitter, radians per second.
inline constexpr Limit kWanderJitter{"the wander jitter limit", 0.0f, 1e3f};

/// Most agents one scenario may hold. Beyond this the agent arrays (tens of bytes per agent on
/// host and device) no longer fit in the memory of the machines this targets.
inline constexpr std::uint64_t kMaxScenarioAgents = 100'000'000;

/// Largest scenario file read: a file with every agent listed one by one, at the agent limit,
/// would be larger, but groups describe crowds in a few lines. Reading stops here rather than
/// filling memory (a device such as /dev/zero never ends).
inline constexpr std::uint64_t kMaxScenarioFileBytes = std::uint64_t{1} << 31;

}  // namespace limits

/// Empty when `value` is finite and within `limit`; otherwise the rule it breaks, without the
/// value: "must be <= 10000 (the radius limit)", "must be >= 0", "must be a finite number".
std::string limitProblem(double value, const Limit& limit);

/// Empty when `value` is within `limit`; otherwise "<what> must be ..., got <value>", e.g.
/// "radius must be <= 10000 (the radius limit), got 1.2e30".
std::string checkLimit(float value, const Limit& limit, const char* what);

/// Empty when both coordinates of `point` are within the coordinate limit; otherwise names the
/// offending coordinate, e.g. "position x must be between -1e6 and 1e6 (the coordinate limit),
/// got 2e19".
std::string checkCoordinate(Vec2 point, const char* what);

/// As checkCoordinate, for a velocity against the velocity limit.
std::string checkVelocity(Vec2 velocity, const char* what);

/// The same checks for a 3D world's points and velocities (z named like x and y).
std::string checkCoordinate(Vec3 point, const char* what);
std::string checkVelocity(Vec3 velocity, const char* what);

}  // namespace crowd
