// The per-agent columns, declared once. The host store, the backends' cell-ordered working
// copies, the device buffers, and every add, remove-and-compact, gather, scatter, upload,
// download and byte count iterate over this list, so a new per-agent field is one line here
// plus its use. The vectors are Vec2 in a planar world and Vec3 in a 3D one (`Vector` below):
// the same columns, the same code, one template argument apart.
#pragma once

#include <cstdint>

#include "agent_id.hpp"
#include "vec2.hpp"
#include "vec3.hpp"

namespace crowd {

// CROWD_AGENT_COLUMNS(COLUMN) expands COLUMN(Type, name, stepWrites) once per column;
// stepWrites says whether a step's phases change it (only those are written back after a step).
// `Vector` is the template argument of whatever expands the list (Vec2 or Vec3).
#define CROWD_AGENT_COLUMNS(COLUMN)                                                              \
  COLUMN(AgentId, id, false) /* Stable handle; id.index breaks ties between neighbours. */       \
  COLUMN(Vector, position, true)                                                                 \
  COLUMN(Vector, velocity, true)                                                                 \
  COLUMN(Vector, prefVelocity, true)    /* As used in the last step, or fixed without a goal. */ \
  COLUMN(Vector, goal, false)           /* Meaningful when flags has kHasGoal. */                \
  COLUMN(std::uint32_t, profile, false) /* Index into the parameter profile table. */            \
  COLUMN(std::uint8_t, flags, true)     /* AgentFlags bits. */                                   \
  COLUMN(float, startTime, false)       /* Seconds into the run before which it stands (premovement). */

/// Bits of the `flags` column.
enum AgentFlags : std::uint8_t {
  kHasGoal = 1,     ///< The preferred velocity heads for `goal`.
  kArrived = 2,     ///< Has been within its goal radius.
  kArrivedNow = 4,  ///< Arrived during the last step; cleared when the step is taken up.
};

/// Pointers to every column, all indexed alike (dense order on the host store, cell order in a
/// backend's working copy). Plain pointers, so the same view works on host and device memory.
template <class Vector>
struct AgentArraysOf {
  using VectorType = Vector;
#define CROWD_COLUMN_POINTER(Type, name, stepWrites) Type* name;
  CROWD_AGENT_COLUMNS(CROWD_COLUMN_POINTER)
#undef CROWD_COLUMN_POINTER
};
using AgentArrays = AgentArraysOf<Vec2>;
using AgentArrays3 = AgentArraysOf<Vec3>;

/// One agent's values in every column: what adding an agent appends.
template <class Vector>
struct AgentRowOf {
#define CROWD_COLUMN_VALUE(Type, name, stepWrites) Type name;
  CROWD_AGENT_COLUMNS(CROWD_COLUMN_VALUE)
#undef CROWD_COLUMN_VALUE
};
using AgentRow = AgentRowOf<Vec2>;
using AgentRow3 = AgentRowOf<Vec3>;

/// Bytes one agent takes over all columns.
template <class Vector>
inline constexpr int kAgentColumnBytesOf = 0
#define CROWD_COLUMN_SIZE(Type, name, stepWrites) +static_cast<int>(sizeof(Type))
    CROWD_AGENT_COLUMNS(CROWD_COLUMN_SIZE)
#undef CROWD_COLUMN_SIZE
    ;
inline constexpr int kAgentColumnBytes = kAgentColumnBytesOf<Vec2>;

}  // namespace crowd
