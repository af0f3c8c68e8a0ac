// The steering state on the device: the same double-buffered, id-indexed arrays as the host's
// SteeringStore, plus each id's sorted slot for the step. Uploaded with the agents, flipped after
// every accepted step, and downloaded into the host store's current buffers when the host reads.
#pragma once

#include <cstddef>
#include <cstdint>

#include <crowd/kernels/steering_terms.hpp>

#include "sim/steering_store.hpp"
#include "sim/cuda/device_buffer.cuh"

namespace crowd {

class DeviceSteeringState {
 public:
  void upload(SteeringStore& host) {
    const std::size_t n = host.size();
    const SteeringStore::Current c = host.current();
    target_.upload(c.target, n);
    route_.upload(c.route, n);
    wander_[current_].upload(c.wander, n);
    segment_[current_].upload(c.segment, n);
    lastTarget_[current_].upload(c.lastTarget, n);
    flags_[current_].upload(c.flags, n);
    const int out = current_ ^ 1;
    wander_[out].resize(n);
    segment_[out].resize(n);
    lastTarget_[out].resize(n);
    flags_[out].resize(n);
    tracked_ = c.track != nullptr;
    track_[current_].upload(c.track, tracked_ ? n : 0);
    track_[out].resize(tracked_ ? n : 0);
    slotOfId_.resize(n);
    size_ = n;
  }
  void download(SteeringStore& host) const {
    if (host.size() != size_) return;  // Uploaded for other agents: nothing of it is current.
    const SteeringStore::Current c = host.current();
    wander_[current_].download(c.wander, size_);
    segment_[current_].download(c.segment, size_);
    lastTarget_[current_].download(c.lastTarget, size_);
    flags_[current_].download(c.flags, size_);
    if (tracked_ && c.track != nullptr) track_[current_].download(c.track, size_);
  }
  /// Whether the device holds tracks (the host started keeping them after the upload if not).
  bool tracked() const { return tracked_; }
  /// The arrays a step reads and writes; slotOfId is filled by the backend when targets exist.
  SteeringState view(bool targets) {
    const int out = current_ ^ 1;
    return SteeringState{target_.data(),          route_.data(),                wander_[current_].data(),     wander_[out].data(),
                         segment_[current_].data(), segment_[out].data(),        lastTarget_[current_].data(),
                         lastTarget_[out].data(),  flags_[current_].data(),      flags_[out].data(),
                         tracked_ ? track_[current_].data() : nullptr, tracked_ ? track_[out].data() : nullptr,
                         slotOfId_.data(),         targets ? static_cast<int>(size_) : 0};
  }
  void flip() { current_ ^= 1; }
  int* slotOfId() { return slotOfId_.data(); }
  std::size_t size() const { return size_; }
  std::size_t bytes() const {
    std::size_t total = target_.bytes() + route_.bytes() + slotOfId_.bytes();
    for (int b = 0; b < 2; ++b) {
      total += wander_[b].bytes() + segment_[b].bytes() + lastTarget_[b].bytes() + flags_[b].bytes() + track_[b].bytes();
    }
    return total;
  }

 private:
  DeviceBuffer<AgentId> target_;
  DeviceBuffer<int> route_;
  DeviceBuffer<Vec2> wander_[2];
  DeviceBuffer<int> segment_[2];
  DeviceBuffer<Vec2> lastTarget_[2];
  DeviceBuffer<std::uint8_t> flags_[2];
  DeviceBuffer<FrenetTrack> track_[2];
  bool tracked_ = false;
  DeviceBuffer<int> slotOfId_;
  int current_ = 0;
  std::size_t size_ = 0;
};

}  // namespace crowd
