// The slot table behind stable agent handles: it hands out AgentIds (index + generation) and maps a
// live one to the agent's place in the dense store.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include <crowd/agent_id.hpp>

namespace crowd {

/// Hands out AgentIds and finds the dense index of a live one. A removed agent's slot is
/// reused with the next generation, so an old handle never names a new agent.
class AgentHandles {
 public:
  /// A handle for a new agent stored at dense index `dense`.
  AgentId add(std::size_t dense);
  bool contains(AgentId id) const;
  /// The dense index of a live agent; throws std::out_of_range for any other handle.
  std::size_t denseOf(AgentId id) const;
  /// Frees the handle of an agent being removed.
  void release(AgentId id);
  /// The agent `id` now lives at dense index `dense` (after the store was compacted).
  void moveTo(AgentId id, std::size_t dense) { slotToDense_[id.index] = static_cast<std::uint32_t>(dense); }
  /// Slots ever handed out: every live id's index is below it.
  std::size_t slotCount() const { return slotGeneration_.size(); }
  std::size_t bytes() const;

 private:
  std::vector<std::uint32_t> slotGeneration_;
  std::vector<std::uint32_t> slotToDense_;  // kFreeSlot when free.
  std::vector<std::uint32_t> freeSlots_;
};

}  // namespace crowd
