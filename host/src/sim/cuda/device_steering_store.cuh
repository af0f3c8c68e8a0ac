// The steering state on the device: the host store's columns (kernels/steering_state.hpp) in
// device buffers (steering_columns.hpp), plus each id's sorted slot for the step. Uploaded with
// the agents, flipped after every accepted step, and downloaded into the host store's current
// buffers when the host reads. It stays on the device between steps in both worlds.
#pragma once

#include <cstddef>
#include <cstdint>

#include <crowd/kernels/steering_state.hpp>

#include "sim/cuda/device_buffer.cuh"
#include "sim/steering_columns.hpp"
#include "sim/steering_store.hpp"

namespace crowd {

template <class Vector>
class DeviceSteeringStoreOf {
 public:
  void upload(SteeringStoreOf<Vector>& host) {
    const std::size_t n = host.size();
    const int out = current_ ^ 1;
    tracked_ = host.hasTracks();
    SteeringColumnsOf<Vector, HostColumn>& from = host.columns();
#define CROWD_UPLOAD_Kept(Type, name) columns_.name.upload(from.name.data(), n);
#define CROWD_UPLOAD_Stepped(Type, name)                             \
  columns_.name[current_].upload(host.current(from.name).data(), n); \
  columns_.name[out].resize(n);
#define CROWD_UPLOAD_Planned(Type, name)                                            \
  columns_.name[current_].upload(host.current(from.name).data(), tracked_ ? n : 0); \
  columns_.name[out].resize(tracked_ ? n : 0);
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
    SteeringColumnsOf<Vector, HostColumn>& to = host.columns();
#define CROWD_DOWNLOAD_Kept(Type, name)
#define CROWD_DOWNLOAD_Stepped(Type, name) \
  columns_.name[current_].download(host.current(to.name).data(), size_);
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
  bool tracked() const {
    return tracked_;
  }
  /// The arrays a step reads and writes; slotOfId is filled by the executor when `targets`.
  SteeringStateOf<Vector> view(bool targets) {
    SteeringStateOf<Vector> state = columns_.view(current_, tracked_);
    state.slotOfId = slotOfId_.data();
    state.idCount = targets ? static_cast<int>(size_) : 0;
    return state;
  }
  void flip() {
    current_ ^= 1;
  }
  int* slotOfId() {
    return slotOfId_.data();
  }
  std::size_t size() const {
    return size_;
  }
  std::size_t bytes() const {
    return columns_.bytes() + slotOfId_.bytes();
  }

 private:
  SteeringColumnsOf<Vector, DeviceBuffer> columns_;
  DeviceBuffer<int> slotOfId_;
  bool tracked_ = false;
  int current_ = 0;
  std::size_t size_ = 0;
};

}  // namespace crowd
