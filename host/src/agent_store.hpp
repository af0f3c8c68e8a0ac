// The agents as one store of columns (kernels/agent_columns.hpp), in dense order: agents in the
// order they were added, compacted stably on removal. Every operation below loops over the
// column list, so none of them changes when a column is added.
#pragma once

#include <cstddef>
#include <span>
#include <vector>

#include <crowd/kernels/agent_columns.hpp>

namespace crowd {

class AgentStore {
 public:
#define CROWD_COLUMN_VECTOR(Type, name, stepWrites) std::vector<Type> name;
  CROWD_AGENT_COLUMNS(CROWD_COLUMN_VECTOR)
#undef CROWD_COLUMN_VECTOR

  std::size_t size() const { return id.size(); }

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
  void forEachColumnWith(const AgentStore& other, F&& f) {
#define CROWD_VISIT_COLUMN_PAIR(Type, name, stepWrites) f(name, other.name, stepWrites);
    CROWD_AGENT_COLUMNS(CROWD_VISIT_COLUMN_PAIR)
#undef CROWD_VISIT_COLUMN_PAIR
  }

  void append(const AgentRow& row);
  /// Removes the agents at the ascending dense indices `removed`, keeping the others in order.
  void removeSorted(std::span<const std::size_t> removed);
  void resize(std::size_t count);
  /// Pointers to every column, for the per-agent phases.
  AgentArrays arrays();
  /// Bytes held over all columns.
  std::size_t bytes() const;
};

/// to[k] = from[order[k]] in every column: gathers agents into the order `order` lists.
void gatherAgents(AgentStore& to, const AgentStore& from, std::span<const int> order, int threads);
/// to = from in every column a step writes (same order, same size).
void copyStepColumns(AgentStore& to, const AgentStore& from, int threads);
/// to[order[k]] = from[k] in every column a step writes: the inverse of gatherAgents for what
/// a step changed.
void scatterAgents(AgentStore& to, const AgentStore& from, std::span<const int> order, int threads);

}  // namespace crowd
