#include "sim/agent_store.hpp"

#include <algorithm>

namespace crowd {

template <class Vector>
void AgentStoreOf<Vector>::append(const Row& row) {
#define CROWD_APPEND_COLUMN(Type, name, stepWrites) name.push_back(row.name);
  CROWD_AGENT_COLUMNS(CROWD_APPEND_COLUMN)
#undef CROWD_APPEND_COLUMN
}

template <class Vector>
void AgentStoreOf<Vector>::removeSorted(std::span<const std::size_t> removed) {
  if (removed.empty()) return;
  const std::size_t n = size();
  forEachColumn([&](auto& column) {
    std::size_t write = removed.front();
    std::size_t next = 0;
    for (std::size_t read = removed.front(); read < n; ++read) {
      if (next < removed.size() && removed[next] == read) {
        ++next;
        continue;
      }
      column[write++] = column[read];
    }
    column.resize(write);
  });
}

template <class Vector>
void AgentStoreOf<Vector>::resize(std::size_t count) {
  forEachColumn([&](auto& column) { column.resize(count); });
}

template <class Vector>
AgentArraysOf<Vector> AgentStoreOf<Vector>::arrays() {
  Arrays view;
#define CROWD_COLUMN_DATA(Type, name, stepWrites) view.name = name.data();
  CROWD_AGENT_COLUMNS(CROWD_COLUMN_DATA)
#undef CROWD_COLUMN_DATA
  return view;
}

template <class Vector>
std::size_t AgentStoreOf<Vector>::bytes() const {
  std::size_t total = 0;
  forEachColumn([&](const auto& column) { total += column.capacity() * sizeof(column[0]); });
  return total;
}

template <class Vector>
void gatherAgents(AgentStoreOf<Vector>& to, const AgentStoreOf<Vector>& from, std::span<const int> order,
                  int threads) {
  const int n = static_cast<int>(order.size());
  to.resize(order.size());
  // One parallel region for all columns; each column's loop is shared out in it.
#pragma omp parallel num_threads(threads)
  to.forEachColumnWith(from, [&](auto& out, const auto& in, bool) {
#pragma omp for schedule(static) nowait
    for (int k = 0; k < n; ++k) out[k] = in[order[k]];
  });
}

template <class Vector>
void copyStepColumns(AgentStoreOf<Vector>& to, const AgentStoreOf<Vector>& from, int threads) {
  const int n = static_cast<int>(from.size());
  to.resize(from.size());
#pragma omp parallel num_threads(threads)
  to.forEachColumnWith(from, [&](auto& out, const auto& in, bool stepWrites) {
    if (!stepWrites) return;
#pragma omp for schedule(static) nowait
    for (int k = 0; k < n; ++k) out[k] = in[k];
  });
}

template <class Vector>
void scatterAgents(AgentStoreOf<Vector>& to, const AgentStoreOf<Vector>& from, std::span<const int> order,
                   int threads) {
  const int n = static_cast<int>(order.size());
  // One parallel region for all columns; each column's loop is shared out in it.
#pragma omp parallel num_threads(threads)
  to.forEachColumnWith(from, [&](auto& out, const auto& in, bool stepWrites) {
    if (!stepWrites) return;  // Unchanged by the step: the store already holds it.
#pragma omp for schedule(static) nowait
    for (int k = 0; k < n; ++k) out[order[k]] = in[k];
  });
}

template <class Vector>
void removeAgents(AgentStoreOf<Vector>& agents, AgentHandles& handles,
                  std::span<const std::size_t> sortedDense) {
  if (sortedDense.empty()) return;
  for (std::size_t d : sortedDense) handles.release(agents.id[d]);
  // Stable compaction keeps the remaining agents in their order, so outputs stay sorted by id.
  agents.removeSorted(sortedDense);
  for (std::size_t d = sortedDense.front(); d < agents.size(); ++d) handles.moveTo(agents.id[d], d);
}

template <class Vector>
std::size_t countArrived(const AgentStoreOf<Vector>& agents) {
  return static_cast<std::size_t>(std::count_if(agents.flags.begin(), agents.flags.end(),
                                                [](std::uint8_t f) { return (f & kArrived) != 0; }));
}

template <class Vector>
std::vector<std::size_t> arrivedAgents(const AgentStoreOf<Vector>& agents) {
  std::vector<std::size_t> arrived;
  for (std::size_t d = 0; d < agents.size(); ++d) {
    if ((agents.flags[d] & kArrived) != 0) arrived.push_back(d);
  }
  return arrived;
}

template <class Vector>
std::uint64_t hashAgents(const AgentStoreOf<Vector>& agents) {
  std::uint64_t hash = 1469598103934665603ull;
  auto mix = [&hash](const void* bytes, std::size_t size) {
    const auto* p = static_cast<const unsigned char*>(bytes);
    for (std::size_t i = 0; i < size; ++i) {
      hash ^= p[i];
      hash *= 1099511628211ull;
    }
  };
  for (std::size_t i = 0; i < agents.size(); ++i) {
    mix(&agents.id[i], sizeof(AgentId));
    mix(&agents.position[i], sizeof(Vector));
    mix(&agents.velocity[i], sizeof(Vector));
  }
  return hash;
}

// The two worlds' stores.
template class AgentStoreOf<Vec2>;
template class AgentStoreOf<Vec3>;
#define CROWD_STORE_FUNCTIONS(Vector)                                                                        \
  template void gatherAgents(AgentStoreOf<Vector>&, const AgentStoreOf<Vector>&, std::span<const int>, int); \
  template void copyStepColumns(AgentStoreOf<Vector>&, const AgentStoreOf<Vector>&, int);                    \
  template void scatterAgents(AgentStoreOf<Vector>&, const AgentStoreOf<Vector>&, std::span<const int>,      \
                              int);                                                                          \
  template void removeAgents(AgentStoreOf<Vector>&, AgentHandles&, std::span<const std::size_t>);            \
  template std::size_t countArrived(const AgentStoreOf<Vector>&);                                            \
  template std::vector<std::size_t> arrivedAgents(const AgentStoreOf<Vector>&);                              \
  template std::uint64_t hashAgents(const AgentStoreOf<Vector>&);
CROWD_STORE_FUNCTIONS(Vec2)
CROWD_STORE_FUNCTIONS(Vec3)
#undef CROWD_STORE_FUNCTIONS

}  // namespace crowd
