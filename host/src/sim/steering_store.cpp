#include "sim/steering_store.hpp"

namespace crowd {

template <class Vector>
void SteeringStoreOf<Vector>::keepTracks() {
  if (tracked_) return;
  tracked_ = true;
  // Only the planned columns start now; every id gets their initial value.
#define CROWD_START_Kept(Type, name, initial)
#define CROWD_START_Stepped(Type, name, initial)
#define CROWD_START_Planned(Type, name, initial) \
  for (auto& buffer : columns_.name) buffer.assign(size_, initial);
#define CROWD_START_COLUMN(Type, name, Kind, initial) CROWD_START_##Kind(Type, name, initial)
  CROWD_STEERING_COLUMNS(CROWD_START_COLUMN)
#undef CROWD_START_COLUMN
#undef CROWD_START_Kept
#undef CROWD_START_Stepped
#undef CROWD_START_Planned
}

template <class Vector>
void SteeringStoreOf<Vector>::resize(std::size_t count) {
  if (count <= size_) return;
#define CROWD_GROW_Kept(Type, name, initial) columns_.name.resize(count, initial);
#define CROWD_GROW_Stepped(Type, name, initial) \
  for (auto& buffer : columns_.name) buffer.resize(count, initial);
#define CROWD_GROW_Planned(Type, name, initial) \
  if (tracked_) CROWD_GROW_Stepped(Type, name, initial)
#define CROWD_GROW_COLUMN(Type, name, Kind, initial) CROWD_GROW_##Kind(Type, name, initial)
  CROWD_STEERING_COLUMNS(CROWD_GROW_COLUMN)
#undef CROWD_GROW_COLUMN
#undef CROWD_GROW_Kept
#undef CROWD_GROW_Stepped
#undef CROWD_GROW_Planned
  size_ = count;
}

template <class Vector>
void SteeringStoreOf<Vector>::reset(std::uint32_t id) {
#define CROWD_RESET_Kept(Type, name, initial)
#define CROWD_RESET_Stepped(Type, name, initial) \
  for (auto& buffer : columns_.name) buffer[id] = initial;
#define CROWD_RESET_Planned(Type, name, initial) \
  if (tracked_) CROWD_RESET_Stepped(Type, name, initial)
#define CROWD_RESET_COLUMN(Type, name, Kind, initial) CROWD_RESET_##Kind(Type, name, initial)
  CROWD_STEERING_COLUMNS(CROWD_RESET_COLUMN)
#undef CROWD_RESET_COLUMN
#undef CROWD_RESET_Kept
#undef CROWD_RESET_Stepped
#undef CROWD_RESET_Planned
}

template <class Vector>
void SteeringStoreOf<Vector>::setTarget(std::uint32_t id, AgentId target) {
  const bool had = columns_.target[id].index != kNoTarget.index;
  const bool has = target.index != kNoTarget.index;
  targets_ = targets_ - (had ? 1 : 0) + (has ? 1 : 0);
  columns_.target[id] = target;
  for (auto& buffer : columns_.flags) buffer[id] = 0;  // The new target has not been seen yet.
}

template <class Vector>
SteeringStateOf<Vector> SteeringStoreOf<Vector>::view() {
  State state = columns_.view(current_, tracked_);
  state.slotOfId = nullptr;
  state.idCount = anyTargets() ? static_cast<int>(size_) : 0;
  return state;
}

template class SteeringStoreOf<Vec2>;
template class SteeringStoreOf<Vec3>;

}  // namespace crowd
