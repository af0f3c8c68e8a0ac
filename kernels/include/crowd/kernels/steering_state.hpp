// Each agent's steering state, declared once as a list of columns: what a behaviour remembers
// from one step to the next (the wander direction, the path segment, where the target was, the
// planner's track) and what the host sets (the target, the agent's own route). The host store,
// the device store and the per-step view below are all generated from the list, in both worlds
// (Vector is Vec2 in the plane, Vec3 in 3D), so a new field is one line here plus its use.
//
// The state is indexed by AgentId::index, so it survives the backends' reordering of the agents
// every step. A step reads the current buffer of each stepped column (`nameIn`) and writes the
// other (`nameOut`); the two change places only when the step is accepted, so a step refused for
// a non-finite result leaves the state as it was. Every agent reads and writes only its own entries.
#pragma once

#include <cstdint>

#include "agent_id.hpp"
#include "config.hpp"
#include "frenet_planner.hpp"
#include "vec2.hpp"
#include "vec3.hpp"

namespace crowd {

/// No target.
inline constexpr AgentId kNoTarget{UINT32_MAX, UINT32_MAX};

/// A track before any plan was made.
CROWD_HD inline FrenetTrack noFrenetTrack() {
  FrenetTrack t{};
  t.hint = -1;
  return t;
}

// CROWD_STEERING_COLUMNS(COLUMN) expands COLUMN(Type, name, Kind, initial) once per column, where
// Kind is
//   Kept     one buffer, set by the host between steps, only read by a step;
//   Stepped  two buffers, read and written by each step;
//   Planned  as Stepped, but held only once some profile has a local planner (tracks are large).
// `initial` is a new agent's value (and what a new behaviour starts from, for the stepped ones).
#define CROWD_STEERING_COLUMNS(COLUMN)                                                                       \
  COLUMN(AgentId, target, Kept, kNoTarget) /* Pursued, evaded, sought or fled agent; kNoTarget: none. */     \
  COLUMN(int, route, Kept, -1)             /* The agent's own path (for kOwnRoute); -1: none. */             \
  COLUMN(Vector, wander, Stepped, Vector(0.0f))        /* Unit wander direction; zero before the first. */   \
  COLUMN(int, segment, Stepped, -1)                    /* Current path segment; -1: search them all. */      \
  COLUMN(Vector, lastTarget, Stepped, Vector(0.0f))    /* The target's position a step ago (kTargetSeen). */ \
  COLUMN(std::uint8_t, flags, Stepped, 0)              /* SteeringFlags bits. */                             \
  COLUMN(FrenetTrack, track, Planned, noFrenetTrack()) /* The plan followed between re-plans. */

/// Bits of the `flags` column.
enum SteeringFlags : std::uint8_t {
  kTargetSeen = 1,  ///< lastTarget holds where the target was at the end of the last step.
};

// The view's fields for each kind of column.
#define CROWD_STEERING_VIEW_Kept(Type, name) const Type* name;
#define CROWD_STEERING_VIEW_Stepped(Type, name) \
  const Type* name##In;                         \
  Type* name##Out;
#define CROWD_STEERING_VIEW_Planned(Type, name) CROWD_STEERING_VIEW_Stepped(Type, name)

/// The steering state as a step sees it: one pointer per kept column, an in and an out pointer
/// per stepped one (null for the planned ones while no profile plans, and for all of them when
/// every profile is goal-only), and each live id's sorted slot this step.
template <class Vector>
struct SteeringStateOf {
#define CROWD_STEERING_VIEW_FIELD(Type, name, Kind, initial) CROWD_STEERING_VIEW_##Kind(Type, name)
  CROWD_STEERING_COLUMNS(CROWD_STEERING_VIEW_FIELD)
#undef CROWD_STEERING_VIEW_FIELD
  const int* slotOfId;  ///< Sorted slot of each live agent id this step, -1 for none.
  int idCount;          ///< Entries of slotOfId (0 when no agent has a target).
};
using SteeringState = SteeringStateOf<Vec2>;
using SteeringState3 = SteeringStateOf<Vec3>;

}  // namespace crowd
