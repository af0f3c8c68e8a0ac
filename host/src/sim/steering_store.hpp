// The host's copy of the per-agent steering state (kernels/steering_terms.hpp: SteeringState),
// indexed by AgentId::index and double-buffered: a step reads one buffer and writes the other,
// and the simulator flips them only when the step is accepted. Allocated only once some agent
// steers (every goal-only crowd pays nothing).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

#include <crowd/kernels/steering_terms.hpp>

namespace crowd {

class SteeringStore {
 public:
  /// Entries for ids 0 .. count - 1; new ones start fresh.
  void resize(std::size_t count);
  std::size_t size() const { return target_.size(); }
  /// Forgets id's wander direction, path segment and last seen target (a new behaviour or agent).
  void reset(std::uint32_t id);
  void setTarget(std::uint32_t id, AgentId target);
  AgentId target(std::uint32_t id) const { return target_[id]; }
  /// The agent's own route (a path number), or -1.
  void setRoute(std::uint32_t id, int path) { route_[id] = path; }
  int route(std::uint32_t id) const { return route_[id]; }
  /// Whether any agent has a target (the backends then map ids to slots each step).
  bool anyTargets() const { return targets_ > 0; }
  /// Keeps a plan per agent (FrenetTrack) from now on, once some profile plans; until then the
  /// tracks take no memory and the view's track arrays are null.
  void keepTracks();
  bool hasTracks() const { return tracked_; }
  /// The arrays a step reads and writes; slotOfId is left for the backend to fill.
  SteeringState view();
  /// The current state's arrays, writable: what a GPU backend uploads, and downloads into.
  struct Current {
    AgentId* target;
    int* route;
    Vec2* wander;
    int* segment;
    Vec2* lastTarget;
    std::uint8_t* flags;
    FrenetTrack* track;  ///< Null without tracks.
  };
  Current current();
  /// Makes the step's output the current state.
  void flip() { current_ ^= 1; }
  std::size_t bytes() const;

 private:
  std::vector<AgentId> target_;
  std::vector<int> route_;
  std::array<std::vector<Vec2>, 2> wander_;
  std::array<std::vector<int>, 2> segment_;
  std::array<std::vector<Vec2>, 2> lastTarget_;
  std::array<std::vector<std::uint8_t>, 2> flags_;
  std::array<std::vector<FrenetTrack>, 2> track_;
  bool tracked_ = false;
  int current_ = 0;
  std::size_t targets_ = 0;
};

}  // namespace crowd
