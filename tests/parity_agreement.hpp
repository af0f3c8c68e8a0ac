// How a backend's new velocities agree with a reference simulator's over many agent-steps: the
// planar parity tests (test_reference_parity.cpp) and the 3D ones (test_simulator3.cpp) turn a
// simulator's state into its world's reference (tests/reference/), step both and count and
// report alike.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdio>
#include <string>
#include <type_traits>
#include <vector>

#include <crowd/simulator.hpp>
#include <crowd/simulator3.hpp>

#include "reference/reference_sim.hpp"
#include "reference/reference_sim_3d.hpp"

namespace crowd {

struct Agreement {
  std::size_t agents = 0;
  std::size_t within1e4 = 0;      // Velocity equal to 1e-4.
  std::size_t equallyGood = 0;    // Infeasible program: a different point, as good an optimum.
  std::size_t disagreements = 0;  // Neither.
  double worst = 0;               // Largest velocity difference of all.

  void operator+=(const Agreement& o) {
    agents += o.agents;
    within1e4 += o.within1e4;
    equallyGood += o.equallyGood;
    disagreements += o.disagreements;
    worst = std::max(worst, o.worst);
  }
  double exactFraction() const {
    return agents ? static_cast<double>(within1e4) / static_cast<double>(agents) : 1.0;
  }
};

/// One line of figures for the test log, e.g. "[ parity ] random states: 24000 agent-steps, ...".
inline void report(const char* tag, const char* what, const Agreement& a) {
  std::printf(
      "[ %s ] %s: %zu agent-steps, %.3f%% within 1e-4, %zu equally good optima of an infeasible program, "
      "%zu disagreements, largest difference %.3g\n",
      tag, what, a.agents, 100.0 * a.exactFraction(), a.equallyGood, a.disagreements, a.worst);
}

namespace test {

namespace ref = crowd_reference;

inline ref::V2 toRef(Vec2 v) {
  return {v.x, v.y};
}
inline ref::V3 toRef(Vec3 v) {
  return {v.x, v.y, v.z};
}

/// How far apart a velocity is from the reference's.
inline double distance(ref::V2 a, ref::V2 b) {
  return std::hypot(a.x - b.x, a.y - b.y);
}
inline double distance(ref::V3 a, ref::V3 b) {
  return ref::length(a - b);
}

/// "(x, y)" or "(x, y, z)", each to 6 significant digits.
inline std::string text(ref::V2 v) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "(%.6g, %.6g)", v.x, v.y);
  return buffer;
}
inline std::string text(ref::V3 v) {
  char buffer[96];
  std::snprintf(buffer, sizeof buffer, "(%.6g, %.6g, %.6g)", v.x, v.y, v.z);
  return buffer;
}

/// A random agent for the random-state parity tests, drawn from `unit(rng)` in this order: its
/// position within a square (cube) of side `side`, a velocity of -2 to 2 along each axis, then
/// half the time a goal in the square, else a preferred velocity like the velocity, and its
/// parameters: radius 0.2-1.5, maxSpeed 0.5-2.5, prefSpeed 0.5-2, neighborDist 2-17,
/// maxNeighbors 0-19, timeHorizon 0.5-10.5 and, in the plane, timeHorizonObst 0.5-10.5.
template <class Vector, class Rng, class Unit>
AgentDefOf<Vector> randomAgent(Rng& rng, Unit& unit, float side) {
  const auto draw = [&](float scale, float offset) {  // Each coordinate scale * unit + offset.
    if constexpr (std::is_same_v<Vector, Vec2>) {
      return Vec2(scale * unit(rng) + offset, scale * unit(rng) + offset);
    } else {
      return Vec3(scale * unit(rng) + offset, scale * unit(rng) + offset, scale * unit(rng) + offset);
    }
  };
  AgentDefOf<Vector> def;
  def.position = draw(side, 0.0f);
  def.velocity = draw(4.0f, -2.0f);
  if (unit(rng) < 0.5f) {
    def.goal = draw(side, 0.0f);
  } else {
    def.prefVelocity = draw(4.0f, -2.0f);
  }
  def.params.radius = 0.2f + 1.3f * unit(rng);
  def.params.maxSpeed = 0.5f + 2.0f * unit(rng);
  def.params.prefSpeed = 0.5f + 1.5f * unit(rng);
  def.params.neighborDist = 2.0f + 15.0f * unit(rng);
  def.params.maxNeighbors = static_cast<int>(unit(rng) * 20.0f);
  def.params.timeHorizon = 0.5f + 10.0f * unit(rng);
  if constexpr (std::is_same_v<Vector, Vec2>) def.params.timeHorizonObst = 0.5f + 10.0f * unit(rng);
  return def;
}

/// A simulator's reference: the world and agent types of tests/reference/ for its world.
template <class Sim>
struct ReferenceOf;
template <>
struct ReferenceOf<Simulator> {
  using World = ref::RefWorld;
  using Agent = ref::RefAgent;
};
template <>
struct ReferenceOf<Simulator3> {
  using World = ref::RefWorld3;
  using Agent = ref::RefAgent3;
};

/// The simulator's current state as a reference world: every agent's state and parameters, and
/// in the plane the obstacle time horizons and the obstacles.
template <class Sim>
typename ReferenceOf<Sim>::World toReference(const Sim& sim) {
  constexpr bool planar = std::is_same_v<Sim, Simulator>;
  typename ReferenceOf<Sim>::World world;
  world.timeStep = sim.config().timeStep;
  for (AgentId id : sim.ids()) {
    const AgentParams& p = sim.params(id);
    typename ReferenceOf<Sim>::Agent a;
    a.position = toRef(sim.position(id));
    a.velocity = toRef(sim.velocity(id));
    a.prefVelocity = toRef(sim.prefVelocity(id));
    if (const auto goal = sim.goal(id)) {
      a.hasGoal = true;
      a.goal = toRef(*goal);
    }
    a.radius = p.radius;
    a.maxSpeed = p.maxSpeed;
    a.prefSpeed = p.prefSpeed;
    a.neighborDist = p.neighborDist;
    a.maxNeighbors = p.maxNeighbors;
    a.timeHorizon = p.timeHorizon;
    if constexpr (planar) a.timeHorizonObst = p.timeHorizonObst;
    world.agents.push_back(a);
  }
  if constexpr (planar) {
    for (std::size_t o = 0; o < sim.obstacles().polygonCount(); ++o) {
      std::vector<ref::V2> polygon;
      for (Vec2 v : sim.obstacles().polygon(o)) polygon.push_back(toRef(v));
      world.obstacles.push_back(polygon);
    }
  }
  return world;
}

/// Steps `sim` once and compares every new velocity with the reference's from the same state.
/// One within 1e-4 agrees; another agrees when `equallyGood(world, agent, ours, theirs)` finds
/// it as good an optimum of an infeasible program, and is reported as a disagreement ("[ tag ]")
/// otherwise.
template <class Sim, class Judge>
Agreement stepAndCompare(Sim& sim, const char* tag, Judge equallyGood) {
  const auto world = toReference(sim);
  const auto expected = ref::computeNewVelocities(world);
  const std::vector<AgentId> ids(sim.ids().begin(), sim.ids().end());
  sim.step();
  Agreement a;
  for (std::size_t i = 0; i < ids.size(); ++i) {
    if (!sim.contains(ids[i])) continue;  // Removed on arrival.
    const auto v = toRef(sim.velocity(ids[i]));
    const double error = distance(v, expected[i]);
    ++a.agents;
    a.worst = std::max(a.worst, error);
    if (error <= 1e-4) {
      ++a.within1e4;
      continue;
    }
    if (equallyGood(world, static_cast<int>(i), v, expected[i])) {
      ++a.equallyGood;
    } else {
      ++a.disagreements;
      std::printf("[ %s ] disagreement: agent %zu, velocity %s, reference %s\n", tag, i, text(v).c_str(),
                  text(expected[i]).c_str());
    }
  }
  return a;
}

/// `steps` steps of `sim`, each compared as stepAndCompare does; reports the total as
/// "[ tag ] what: ..." and returns it.
template <class Sim, class Judge>
Agreement compareSteps(Sim& sim, int steps, const char* tag, const char* what, Judge equallyGood) {
  Agreement total;
  for (int s = 0; s < steps; ++s) total += stepAndCompare(sim, tag, equallyGood);
  report(tag, what, total);
  return total;
}

}  // namespace test
}  // namespace crowd
