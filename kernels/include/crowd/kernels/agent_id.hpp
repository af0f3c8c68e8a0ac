// Stable agent handles: an index into a slot table plus a generation that changes when the
// slot is reused, so a handle to a removed agent never silently names a newer one.
#pragma once

#include <cstdint>

namespace crowd {

struct AgentId {
  std::uint32_t index = UINT32_MAX;  ///< Slot; for agents added in order without removals, their order.
  std::uint32_t generation = 0;

  bool operator==(const AgentId&) const = default;
};

}  // namespace crowd
