// The static world (kernels/static_world.hpp) in device memory: one buffer per array of the list,
// uploaded whole whenever the host's world changed, and the same view over device pointers.
#pragma once

#include <cstddef>

#include <crowd/kernels/static_world.hpp>

#include "sim/cuda/device_buffer.cuh"

namespace crowd {

class DeviceStaticWorld {
 public:
  void upload(const StaticWorldView& host) {
#define CROWD_UPLOAD_ARRAY(Type, name) name##_.upload(host.name, host.name##Count);
    CROWD_STATIC_WORLD_ARRAYS(CROWD_UPLOAD_ARRAY)
#undef CROWD_UPLOAD_ARRAY
    edgeGrid_ = host.edgeGrid;
    lineSpacing_ = host.lineSpacing;
  }
  /// The view over the device's copies.
  StaticWorldView view() const {
    StaticWorldView world;
#define CROWD_DEVICE_ARRAY_VIEW(Type, name) \
  world.name = name##_.data();              \
  world.name##Count = name##_.size();
    CROWD_STATIC_WORLD_ARRAYS(CROWD_DEVICE_ARRAY_VIEW)
#undef CROWD_DEVICE_ARRAY_VIEW
    world.edgeGrid = edgeGrid_;
    world.lineSpacing = lineSpacing_;
    return world;
  }
  std::size_t bytes() const {
    std::size_t total = 0;
#define CROWD_ARRAY_BYTES(Type, name) total += name##_.bytes();
    CROWD_STATIC_WORLD_ARRAYS(CROWD_ARRAY_BYTES)
#undef CROWD_ARRAY_BYTES
    return total;
  }

 private:
#define CROWD_ARRAY_BUFFER(Type, name) DeviceBuffer<Type> name##_;
  CROWD_STATIC_WORLD_ARRAYS(CROWD_ARRAY_BUFFER)
#undef CROWD_ARRAY_BUFFER
  GridGeometry edgeGrid_{};
  double lineSpacing_ = 0.0;
};

}  // namespace crowd
