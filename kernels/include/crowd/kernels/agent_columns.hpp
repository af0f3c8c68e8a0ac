// The per-agent columns, declared once. The host store, the backends' cell-ordered working
// copies, the device buffers, and every add, remove-and-compact, gather, scatter, upload,
// download and byte count iterate over this list, so a new per-agent field is one line here
// plus its use.
#pragma once

#include <cstdint>

#include "agent_id.hpp"
#include "vec2.hpp"

namespace crowd {

// CROWD_AGENT_COLUMNS(COLUMN) expands COLUMN(Type, name, stepWrites) once per column;
// stepWrites says whether a step's phases change it (only those are written back after a step).
#define CROWD_AGENT_COLUMNS(COLUMN)                                                                   \
  COLUMN(AgentId, id, false)             /* Stable handle; id.index breaks ties between neighbours. */ \
  COLUMN(Vec2, position, true)                                                                        \
  COLUMN(Vec2, velocity, true)                                                                        \
  COLUMN(Vec2, prefVelocity, true)       /* As used in the last step, or fixed without a goal. */     \
  COLUMN(Vec2, goal, false)              /* Meaningful when flags has kHasGoal. */                    \
  COLUMN(std::uint32_t, profile, false)  /* Index into the parameter profile table. */               \
  COLUMN(std::uint8_t, flags, true)      /* AgentFlags bits. */

/// Bits of the `flags` column.
enum AgentFlags : std::uint8_t {
  kHasGoal = 1,     ///< The preferred velocity heads for `goal`.
  kArrived = 2,     ///< Has been within its goal radius.
  kArrivedNow = 4,  ///< Arrived during the last step; cleared when the step is taken up.
};

/// Pointers to every column, all indexed alike (dense order on the host store, cell order in a
/// backend's working copy). Plain pointers, so the same view works on host and device memory.
struct AgentArrays {
#define CROWD_COLUMN_POINTER(Type, name, stepWrites) Type* name;
  CROWD_AGENT_COLUMNS(CROWD_COLUMN_POINTER)
#undef CROWD_COLUMN_POINTER
};

/// One agent's values in every column: what adding an agent appends.
struct AgentRow {
#define CROWD_COLUMN_VALUE(Type, name, stepWrites) Type name;
  CROWD_AGENT_COLUMNS(CROWD_COLUMN_VALUE)
#undef CROWD_COLUMN_VALUE
};

/// Bytes one agent takes over all columns.
inline constexpr int kAgentColumnBytes = 0
#define CROWD_COLUMN_SIZE(Type, name, stepWrites) +static_cast<int>(sizeof(Type))
    CROWD_AGENT_COLUMNS(CROWD_COLUMN_SIZE)
#undef CROWD_COLUMN_SIZE
    ;

}  // namespace crowd
