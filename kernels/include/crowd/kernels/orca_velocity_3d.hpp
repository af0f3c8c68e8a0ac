// One agent's new velocity in a 3D world: RVO2-3D's computeNewVelocity over the step's view.
// One half-space per agent neighbour, in neighbour order (the order that decides the result),
// then the 3D linear program, for the preferred velocity deadlock breaking gives (deadlock.hpp).
#pragma once

#include "config.hpp"
#include "deadlock.hpp"
#include "linear_program_3d.hpp"
#include "orca_agents_3d.hpp"
#include "step_view.hpp"
#include "vec3.hpp"

namespace crowd {

struct OrcaResult3 {
  Vec3 velocity;
  int lines;  ///< Half-spaces built, a cost figure.
};

CROWD_HD inline OrcaResult3 orcaVelocity(const StepView3& view, int self, Vec3 desired) {
  const AgentArrays3& agents = view.agents;
  const ProfileTerms& t = view.terms[agents.profile[self]];
  const Sphere3 me{agents.position[self], agents.velocity[self], t.radius};
  OrcaPlane planes[kMaxOrcaPlanes];
  const int neighbours = view.neighbours.count[self];
  const unsigned selfId = agents.id[self].index;
  for (int m = 0; m < neighbours; ++m) {
    const int other = view.neighbours.at(self, m);
    const Sphere3 them{agents.position[other], agents.velocity[other],
                       view.terms[agents.profile[other]].radius};
    planes[m] = agentOrcaPlane3(me, them, t.invTimeHorizon, view.invTimeStep,
                                coincidentSeparationHint3(selfId, agents.id[other].index));
  }
  return OrcaResult3{
      solveOrca3(planes, neighbours, t.maxSpeed, orcaPrefVelocity(view, self, t.maxSpeed, desired)),
      neighbours};
}

}  // namespace crowd
