// The steering state on the device: the host store's columns (kernels/steering_state.hpp),
// generated from the same list, plus each id's sorted slot for the step. Uploaded with the agents,
// flipped after every accepted step, and downloaded into the host store's current buffers when the
// host reads. It stays on the device between steps in both worlds.
#pragma once

#include <cstddef>
#include <cstdint>

#include <crowd/kernels/steering_state.hpp>

#include "sim/cuda/device_buffer.cuh"
#include "sim/steering_store.hpp"

namespace crowd {

template <class Vector>
class DeviceSteeringStoreOf {
 public:
  void upload(SteeringStoreOf<Vector>& host) {
    const std::size_t n = host.size();
    const int out = current_ ^ 1;
    tracked_ = host.hasTracks();
#define CROWD_UPLOAD_Kept(Type, name) name##_.upload(host.name##Current().data(), n);
#define CROWD_UPLOAD_Stepped(Type, name)                         \
  name##_[current_].upload(host.name##Current().data(), n); \
  name##_[out].resize(n);
#define CROWD_UPLOAD_Planned(Type, name)                                           \
  name##_[current_].upload(host.name##Current().data(), tracked_ ? n : 0); \
  name##_[out].resize(tracked_ ? n : 0);
#define CROWD_UPLOAD_COLUMN(Type, name, Kind, initial) CROWD_UPLOAD_##Kind(Type, name)
    CROWD_STEERING_COLUMNS(CROWD_UPLOAD_COLUMN)
#undef CROWD_UPLOAD_COLUMN
#undef CROWD_UPLOAD_Kept
#undef CROWD_UPLOAD_Stepped
#undef CROWD_UPLOAD_Planned
    slotOfId_.resize(n);
    size_ = n;
  }
  /// Into the host's current buffers (the kept columns are the host's to set, never the step's).
  void download(SteeringStoreOf<Vector>& host) const {
    if (host.size() != size_) return;  // Uploaded for other agents: nothing of it is current.
#define CROWD_DOWNLOAD_Kept(Type, name)
#define CROWD_DOWNLOAD_Stepped(Type, name) name##_[current_].download(host.name##Current().data(), size_);
#define CROWD_DOWNLOAD_Planned(Type, name) \
  if (tracked_ && host.hasTracks()) CROWD_DOWNLOAD_Stepped(Type, name)
#define CROWD_DOWNLOAD_COLUMN(Type, name, Kind, initial) CROWD_DOWNLOAD_##Kind(Type, name)
    CROWD_STEERING_COLUMNS(CROWD_DOWNLOAD_COLUMN)
#undef CROWD_DOWNLOAD_COLUMN
#undef CROWD_DOWNLOAD_Kept
#undef CROWD_DOWNLOAD_Stepped
#undef CROWD_DOWNLOAD_Planned
  }
  /// Whether the device holds tracks (the host started keeping them after the upload if not).
  bool tracked() const { return tracked_; }
  /// The arrays a step reads and writes; slotOfId is filled by the executor when `targets`.
  SteeringStateOf<Vector> view(bool targets) {
    const int out = current_ ^ 1;
    SteeringStateOf<Vector> state{};
#define CROWD_VIEW_Kept(Type, name) state.name = name##_.data();
#define CROWD_VIEW_Stepped(Type, name)        \
  state.name##In = name##_[current_].data(); \
  state.name##Out = name##_[out].data();
#define CROWD_VIEW_Planned(Type, name) \
  if (tracked_) {                      \
    CROWD_VIEW_Stepped(Type, name)     \
  }
#define CROWD_VIEW_COLUMN(Type, name, Kind, initial) CROWD_VIEW_##Kind(Type, name)
    CROWD_STEERING_COLUMNS(CROWD_VIEW_COLUMN)
#undef CROWD_VIEW_COLUMN
#undef CROWD_VIEW_Kept
#undef CROWD_VIEW_Stepped
#undef CROWD_VIEW_Planned
    state.slotOfId = slotOfId_.data();
    state.idCount = targets ? static_cast<int>(size_) : 0;
    return state;
  }
  void flip() { current_ ^= 1; }
  int* slotOfId() { return slotOfId_.data(); }
  std::size_t size() const { return size_; }
  std::size_t bytes() const {
    std::size_t total = slotOfId_.bytes();
#define CROWD_BYTES_Kept(Type, name) total += name##_.bytes();
#define CROWD_BYTES_Stepped(Type, name) total += name##_[0].bytes() + name##_[1].bytes();
#define CROWD_BYTES_Planned(Type, name) CROWD_BYTES_Stepped(Type, name)
#define CROWD_BYTES_COLUMN(Type, name, Kind, initial) CROWD_BYTES_##Kind(Type, name)
    CROWD_STEERING_COLUMNS(CROWD_BYTES_COLUMN)
#undef CROWD_BYTES_COLUMN
#undef CROWD_BYTES_Kept
#undef CROWD_BYTES_Stepped
#undef CROWD_BYTES_Planned
    return total;
  }

 private:
#define CROWD_DEVICE_Kept(Type, name) DeviceBuffer<Type> name##_;
#define CROWD_DEVICE_Stepped(Type, name) DeviceBuffer<Type> name##_[2];
#define CROWD_DEVICE_Planned(Type, name) CROWD_DEVICE_Stepped(Type, name)
#define CROWD_DEVICE_COLUMN(Type, name, Kind, initial) CROWD_DEVICE_##Kind(Type, name)
  CROWD_STEERING_COLUMNS(CROWD_DEVICE_COLUMN)
#undef CROWD_DEVICE_COLUMN
#undef CROWD_DEVICE_Kept
#undef CROWD_DEVICE_Stepped
#undef CROWD_DEVICE_Planned
  DeviceBuffer<int> slotOfId_;
  bool tracked_ = false;
  int current_ = 0;
  std::size_t size_ = 0;
};

}  // namespace crowd
