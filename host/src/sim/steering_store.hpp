// The host's copy of the per-agent steering state: the columns of kernels/steering_state.hpp's
// list in host vectors (steering_columns.hpp), for either world. Indexed by
// AgentId::index. A step reads one buffer of each stepped column and writes the other; flip()
// makes the written one current only when the step is accepted. Made only once some agent steers
// or has a target (a goal-only crowd pays nothing), and the planned columns only once some profile
// plans.
#pragma once

#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <vector>

#include <crowd/kernels/steering_state.hpp>

#include "sim/steering_columns.hpp"

namespace crowd {

template <class Vector>
class SteeringStoreOf {
 public:
  using State = SteeringStateOf<Vector>;

  /// Entries for ids 0 .. count - 1; new ones start with each column's initial value.
  void resize(std::size_t count);
  std::size_t size() const { return size_; }
  /// Starts id's stepped state afresh (a new agent, or a new behaviour); keeps its kept columns.
  void reset(std::uint32_t id);
  void setTarget(std::uint32_t id, AgentId target);
  AgentId target(std::uint32_t id) const { return columns_.target[id]; }
  /// The agent's own route (a path number), or -1.
  void setRoute(std::uint32_t id, int path) { columns_.route[id] = path; }
  int route(std::uint32_t id) const { return columns_.route[id]; }
  /// The agent's current path segment (-1: none yet).
  int segment(std::uint32_t id) const { return columns_.segment[current_][id]; }
  /// Whether any agent has a target (the executors then map ids to slots each step).
  bool anyTargets() const { return targets_ > 0; }
  /// Holds the planned columns from now on, once some profile plans; until then they take no
  /// memory and their view pointers are null.
  void keepTracks();
  bool hasTracks() const { return tracked_; }
  /// The arrays a step reads and writes; slotOfId is left for the executor to fill, idCount is
  /// the entries when some agent has a target, else 0.
  State view();
  /// Makes the step's output the current state.
  void flip() { current_ ^= 1; }
  int currentBuffer() const { return current_; }
  std::size_t bytes() const { return columns_.bytes(); }

  /// Each column's current buffer (a kept column's only one): what a device copy uploads from and
  /// downloads into. The planned columns are empty while tracks are not kept.
  template <class Column>
  auto& current(Column& column) {
    if constexpr (std::is_array_v<Column>) {
      return column[current_];
    } else {
      return column;
    }
  }
  /// The columns themselves, for a device copy to mirror (each through current()).
  SteeringColumnsOf<Vector, HostColumn>& columns() { return columns_; }

 private:
  SteeringColumnsOf<Vector, HostColumn> columns_;
  std::size_t size_ = 0;
  bool tracked_ = false;
  int current_ = 0;
  std::size_t targets_ = 0;
};
using SteeringStore = SteeringStoreOf<Vec2>;
using SteeringStore3 = SteeringStoreOf<Vec3>;

extern template class SteeringStoreOf<Vec2>;
extern template class SteeringStoreOf<Vec3>;

}  // namespace crowd
