// The agents as one store of columns (kernels/agent_columns.hpp), in dense order: agents in the
// order they were added, compacted stably on removal. Every operation below loops over the
// column list, so none of them changes when a column is added. AgentStore holds a planar
// world's agents, AgentStore3 a 3D world's: the same store over Vec2 or Vec3 vectors.
#pragma once

#include <cstddef>
#include <span>
#include <vector>

#include <crowd/kernels/agent_columns.hpp>

#include "sim/agent_handles.hpp"

namespace crowd {

template <class Vector>
class AgentStoreOf {
 public:
  using Row = AgentRowOf<Vector>;
  using Arrays = AgentArraysOf<Vector>;

#define CROWD_COLUMN_VECTOR(Type, name, stepWrites) std::vector<Type> name;
  CROWD_AGENT_COLUMNS(CROWD_COLUMN_VECTOR)
#undef CROWD_COLUMN_VECTOR

  std::size_t size() const {
    return id.size();
  }

  /// Calls f(column) for every column vector.
  template <class F>
  void forEachColumn(F&& f) {
#define CROWD_VISIT_COLUMN(Type, name, stepWrites) f(name);
    CROWD_AGENT_COLUMNS(CROWD_VISIT_COLUMN)
#undef CROWD_VISIT_COLUMN
  }
  template <class F>
  void forEachColumn(F&& f) const {
#define CROWD_VISIT_COLUMN(Type, name, stepWrites) f(name);
    CROWD_AGENT_COLUMNS(CROWD_VISIT_COLUMN)
#undef CROWD_VISIT_COLUMN
  }
  /// Calls f(mine, theirs, stepWrites) for every column of this store and the same column of
  /// `other`.
  template <class F>
  void forEachColumnWith(const AgentStoreOf& other, F&& f) {
#define CROWD_VISIT_COLUMN_PAIR(Type, name, stepWrites) f(name, other.name, stepWrites);
    CROWD_AGENT_COLUMNS(CROWD_VISIT_COLUMN_PAIR)
#undef CROWD_VISIT_COLUMN_PAIR
  }

  void append(const Row& row);
  /// Removes the agents at the ascending dense indices `removed`, keeping the others in order.
  void removeSorted(std::span<const std::size_t> removed);
  void resize(std::size_t count);
  /// Pointers to every column, for the per-agent phases.
  Arrays arrays();
  /// Bytes held over all columns.
  std::size_t bytes() const;
};
using AgentStore = AgentStoreOf<Vec2>;
using AgentStore3 = AgentStoreOf<Vec3>;

/// to[k] = from[order[k]] in every column: gathers agents into the order `order` lists.
template <class Vector>
void gatherAgents(AgentStoreOf<Vector>& to, const AgentStoreOf<Vector>& from, std::span<const int> order,
                  int threads);
/// to = from in every column a step writes (same order, same size).
template <class Vector>
void copyStepColumns(AgentStoreOf<Vector>& to, const AgentStoreOf<Vector>& from, int threads);
/// to[order[k]] = from[k] in every column a step writes: the inverse of gatherAgents for what
/// a step changed.
template <class Vector>
void scatterAgents(AgentStoreOf<Vector>& to, const AgentStoreOf<Vector>& from, std::span<const int> order,
                   int threads);

/// Removes the agents at the ascending dense indices `sortedDense` and frees their handles;
/// the others keep their order and handles.
template <class Vector>
void removeAgents(AgentStoreOf<Vector>& agents, AgentHandles& handles,
                  std::span<const std::size_t> sortedDense);

/// How many agents have arrived.
template <class Vector>
std::size_t countArrived(const AgentStoreOf<Vector>& agents);

/// The dense indices of the agents that have arrived, ascending.
template <class Vector>
std::vector<std::size_t> arrivedAgents(const AgentStoreOf<Vector>& agents);

/// FNV-1a over the bits of every agent's id, position and velocity: equal hashes mean
/// identical states.
template <class Vector>
std::uint64_t hashAgents(const AgentStoreOf<Vector>& agents);

}  // namespace crowd
