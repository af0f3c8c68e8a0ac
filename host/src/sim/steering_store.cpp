#include "sim/steering_store.hpp"

namespace crowd {

namespace {

FrenetTrack noTrack() {
  FrenetTrack t{};
  t.hint = -1;
  return t;
}

}  // namespace

void SteeringStore::keepTracks() {
  if (tracked_) return;
  tracked_ = true;
  for (int b = 0; b < 2; ++b) track_[b].assign(target_.size(), noTrack());
}

void SteeringStore::resize(std::size_t count) {
  const std::size_t old = target_.size();
  if (count <= old) return;
  if (tracked_) {
    for (int b = 0; b < 2; ++b) track_[b].resize(count, noTrack());
  }
  target_.resize(count, kNoTarget);
  route_.resize(count, -1);
  for (int b = 0; b < 2; ++b) {
    wander_[b].resize(count, Vec2(0.0f, 0.0f));
    segment_[b].resize(count, -1);
    lastTarget_[b].resize(count, Vec2(0.0f, 0.0f));
    flags_[b].resize(count, 0);
  }
}

void SteeringStore::reset(std::uint32_t id) {
  for (int b = 0; b < 2; ++b) {
    wander_[b][id] = Vec2(0.0f, 0.0f);
    segment_[b][id] = -1;
    lastTarget_[b][id] = Vec2(0.0f, 0.0f);
    flags_[b][id] = 0;
    if (tracked_) track_[b][id] = noTrack();
  }
}

void SteeringStore::setTarget(std::uint32_t id, AgentId target) {
  const bool had = target_[id].index != kNoTarget.index;
  const bool has = target.index != kNoTarget.index;
  targets_ = targets_ - (had ? 1 : 0) + (has ? 1 : 0);
  target_[id] = target;
  for (int b = 0; b < 2; ++b) flags_[b][id] = 0;  // The new target has not been seen yet.
}

SteeringState SteeringStore::view() {
  const int in = current_;
  const int out = current_ ^ 1;
  return SteeringState{target_.data(),          route_.data(),       wander_[in].data(),  wander_[out].data(), segment_[in].data(),
                       segment_[out].data(),    lastTarget_[in].data(), lastTarget_[out].data(),
                       flags_[in].data(),       flags_[out].data(),
                       tracked_ ? track_[in].data() : nullptr, tracked_ ? track_[out].data() : nullptr, nullptr,
                       static_cast<int>(target_.size())};
}

SteeringStore::Current SteeringStore::current() {
  return Current{target_.data(), route_.data(), wander_[current_].data(), segment_[current_].data(), lastTarget_[current_].data(),
                 flags_[current_].data(), tracked_ ? track_[current_].data() : nullptr};
}

std::size_t SteeringStore::bytes() const {
  std::size_t total = target_.capacity() * sizeof(AgentId) + route_.capacity() * sizeof(int);
  for (int b = 0; b < 2; ++b) {
    total += wander_[b].capacity() * sizeof(Vec2) + segment_[b].capacity() * sizeof(int) +
             lastTarget_[b].capacity() * sizeof(Vec2) + flags_[b].capacity() + track_[b].capacity() * sizeof(FrenetTrack);
  }
  return total;
}

}  // namespace crowd
