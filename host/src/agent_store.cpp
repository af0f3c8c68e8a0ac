#include "agent_store.hpp"

namespace crowd {

void AgentStore::append(const AgentRow& row) {
#define CROWD_APPEND_COLUMN(Type, name, stepWrites) name.push_back(row.name);
  CROWD_AGENT_COLUMNS(CROWD_APPEND_COLUMN)
#undef CROWD_APPEND_COLUMN
}

void AgentStore::removeSorted(std::span<const std::size_t> removed) {
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

void AgentStore::resize(std::size_t count) {
  forEachColumn([&](auto& column) { column.resize(count); });
}

AgentArrays AgentStore::arrays() {
  AgentArrays view;
#define CROWD_COLUMN_DATA(Type, name, stepWrites) view.name = name.data();
  CROWD_AGENT_COLUMNS(CROWD_COLUMN_DATA)
#undef CROWD_COLUMN_DATA
  return view;
}

std::size_t AgentStore::bytes() const {
  std::size_t total = 0;
  forEachColumn([&](const auto& column) { total += column.capacity() * sizeof(column[0]); });
  return total;
}

void gatherAgents(AgentStore& to, const AgentStore& from, std::span<const int> order, int threads) {
  const int n = static_cast<int>(order.size());
  to.resize(order.size());
  // One parallel region for all columns; each column's loop is shared out in it.
#pragma omp parallel num_threads(threads)
  to.forEachColumnWith(from, [&](auto& out, const auto& in, bool) {
#pragma omp for schedule(static) nowait
    for (int k = 0; k < n; ++k) out[k] = in[order[k]];
  });
}

void copyStepColumns(AgentStore& to, const AgentStore& from, int threads) {
  const int n = static_cast<int>(from.size());
  to.resize(from.size());
#pragma omp parallel num_threads(threads)
  to.forEachColumnWith(from, [&](auto& out, const auto& in, bool stepWrites) {
    if (!stepWrites) return;
#pragma omp for schedule(static) nowait
    for (int k = 0; k < n; ++k) out[k] = in[k];
  });
}

void scatterAgents(AgentStore& to, const AgentStore& from, std::span<const int> order, int threads) {
  const int n = static_cast<int>(order.size());
  // One parallel region for all columns; each column's loop is shared out in it.
#pragma omp parallel num_threads(threads)
  to.forEachColumnWith(from, [&](auto& out, const auto& in, bool stepWrites) {
    if (!stepWrites) return;  // Unchanged by the step: the store already holds it.
#pragma omp for schedule(static) nowait
    for (int k = 0; k < n; ++k) out[order[k]] = in[k];
  });
}

}  // namespace crowd
