// The steering state's columns (kernels/steering_state.hpp) in some storage: one Buffer per kept
// column, two per stepped or planned one. The host store keeps them in std::vector, the CUDA
// executor in DeviceBuffer; the step's view of them and their byte count are written here once
// for both.
#pragma once

#include <cstddef>
#include <vector>

#include <crowd/kernels/steering_state.hpp>

namespace crowd {

/// Bytes a host column holds.
template <class T>
std::size_t bufferBytes(const std::vector<T>& column) {
  return column.capacity() * sizeof(T);
}

template <class Vector, template <class> class Buffer>
struct SteeringColumnsOf {
#define CROWD_STEERING_BUFFER_Kept(Type, name) Buffer<Type> name;
#define CROWD_STEERING_BUFFER_Stepped(Type, name) Buffer<Type> name[2];
#define CROWD_STEERING_BUFFER_Planned(Type, name) CROWD_STEERING_BUFFER_Stepped(Type, name)
#define CROWD_STEERING_BUFFER(Type, name, Kind, initial) CROWD_STEERING_BUFFER_##Kind(Type, name)
  CROWD_STEERING_COLUMNS(CROWD_STEERING_BUFFER)
#undef CROWD_STEERING_BUFFER
#undef CROWD_STEERING_BUFFER_Kept
#undef CROWD_STEERING_BUFFER_Stepped
#undef CROWD_STEERING_BUFFER_Planned

  /// The step's view: kept columns as they are, stepped ones read from buffer `in` and written to
  /// the other, planned ones only when `tracked` (else null). slotOfId and idCount are left for
  /// the caller.
  SteeringStateOf<Vector> view(int in, bool tracked) {
    const int out = in ^ 1;
    SteeringStateOf<Vector> state{};
#define CROWD_VIEW_Kept(Type, name) state.name = name.data();
#define CROWD_VIEW_Stepped(Type, name) \
  state.name##In = name[in].data();    \
  state.name##Out = name[out].data();
#define CROWD_VIEW_Planned(Type, name) \
  if (tracked) {                       \
    CROWD_VIEW_Stepped(Type, name)     \
  }
#define CROWD_VIEW_COLUMN(Type, name, Kind, initial) CROWD_VIEW_##Kind(Type, name)
    CROWD_STEERING_COLUMNS(CROWD_VIEW_COLUMN)
#undef CROWD_VIEW_COLUMN
#undef CROWD_VIEW_Kept
#undef CROWD_VIEW_Stepped
#undef CROWD_VIEW_Planned
    return state;
  }

  /// Bytes held over every buffer.
  std::size_t bytes() const {
    std::size_t total = 0;
#define CROWD_BYTES_Kept(Type, name) total += bufferBytes(name);
#define CROWD_BYTES_Stepped(Type, name) total += bufferBytes(name[0]) + bufferBytes(name[1]);
#define CROWD_BYTES_Planned(Type, name) CROWD_BYTES_Stepped(Type, name)
#define CROWD_BYTES_COLUMN(Type, name, Kind, initial) CROWD_BYTES_##Kind(Type, name)
    CROWD_STEERING_COLUMNS(CROWD_BYTES_COLUMN)
#undef CROWD_BYTES_COLUMN
#undef CROWD_BYTES_Kept
#undef CROWD_BYTES_Stepped
#undef CROWD_BYTES_Planned
    return total;
  }
};

/// A host column: what SteeringColumnsOf holds on the host.
template <class T>
using HostColumn = std::vector<T>;

}  // namespace crowd
