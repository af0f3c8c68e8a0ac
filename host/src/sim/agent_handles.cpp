#include "sim/agent_handles.hpp"

#include <stdexcept>
#include <string>

namespace crowd {
namespace {

constexpr std::uint32_t kFreeSlot = UINT32_MAX;

}  // namespace

AgentId AgentHandles::add(std::size_t dense) {
  AgentId id;
  if (!freeSlots_.empty()) {
    id.index = freeSlots_.back();
    freeSlots_.pop_back();
    id.generation = slotGeneration_[id.index];
  } else {
    id.index = static_cast<std::uint32_t>(slotGeneration_.size());
    slotGeneration_.push_back(0);
    slotToDense_.push_back(kFreeSlot);
  }
  slotToDense_[id.index] = static_cast<std::uint32_t>(dense);
  return id;
}

bool AgentHandles::contains(AgentId id) const {
  return id.index < slotToDense_.size() && slotToDense_[id.index] != kFreeSlot &&
         slotGeneration_[id.index] == id.generation;
}

std::size_t AgentHandles::denseOf(AgentId id) const {
  if (!contains(id)) {
    throw std::out_of_range("no live agent with id " + std::to_string(id.index) + "/" +
                            std::to_string(id.generation));
  }
  return slotToDense_[id.index];
}

void AgentHandles::release(AgentId id) {
  slotToDense_[id.index] = kFreeSlot;
  ++slotGeneration_[id.index];
  freeSlots_.push_back(id.index);
}

std::size_t AgentHandles::bytes() const {
  return (slotGeneration_.capacity() + slotToDense_.capacity() + freeSlots_.capacity()) *
         sizeof(std::uint32_t);
}

}  // namespace crowd
