// A 3D world: agents are spheres with 3D positions, velocities and goals, avoiding each other by
// ORCA in three dimensions (RVO2-3D's semantics). Drones, fish, birds, or people on several
// floors at once. It is BasicSimulator<Vec3> (crowd/basic_simulator.hpp): the planar simulator's
// verbs, step, backends, grid and K-nearest rule, over Vec3 columns.
//
// What a 3D world has: goals (RVO2-3D's rule: head for the goal, no faster than prefSpeed) or
// fixed preferred velocities, the steering behaviours that need no planar geometry (seek, flee,
// arrive, separation, pursue, evade, wander; checkBehavior3) with their state (targets, wander
// directions), deadlock breaking as in the plane, per-agent parameters, arrivals and their
// removal. What it has not (yet): obstacles, paths, routes and planners; timeHorizonObst is not
// used. The configuration's origin does not apply.
#pragma once

#include <crowd/basic_simulator.hpp>
#include <crowd/kernels/vec3.hpp>

namespace crowd {

class Simulator3 final : public BasicSimulator<Vec3> {
 public:
  /// Auto picks the GPU when there is a usable one, as in the plane.
  explicit Simulator3(const SimulatorConfig& config = {});

 private:
  /// checkBehavior3's refusals.
  void requireUsable(const Behavior& behavior) override;
};

}  // namespace crowd
