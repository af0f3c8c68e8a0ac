// The agent store: every operation covers every column of the one declaration, and removal,
// gather and scatter keep each agent's values together.
#include <vector>

#include <gtest/gtest.h>

#include "sim/agent_store.hpp"

namespace crowd {
namespace {

// A row whose every column is derived from `i`, so a moved value shows where it came from.
AgentRow rowFor(unsigned i) {
  AgentRow row{};
  row.id = AgentId{i, 7 * i};
  row.position = Vec2(static_cast<float>(i), 0.5f);
  row.velocity = Vec2(0.0f, static_cast<float>(i));
  row.prefVelocity = Vec2(static_cast<float>(i), static_cast<float>(i));
  row.goal = Vec2(-static_cast<float>(i), 1.0f);
  row.profile = i % 3;
  row.flags = static_cast<std::uint8_t>(i % 4);
  return row;
}

void expectRow(const AgentStore& store, std::size_t at, unsigned i) {
  const AgentRow expected = rowFor(i);
  EXPECT_EQ(store.id[at], expected.id) << at;
  EXPECT_EQ(store.position[at], expected.position) << at;
  EXPECT_EQ(store.velocity[at], expected.velocity) << at;
  EXPECT_EQ(store.prefVelocity[at], expected.prefVelocity) << at;
  EXPECT_EQ(store.goal[at], expected.goal) << at;
  EXPECT_EQ(store.profile[at], expected.profile) << at;
  EXPECT_EQ(store.flags[at], expected.flags) << at;
}

TEST(AgentStore, AppendFillsEveryColumnAndCountsBytes) {
  AgentStore store;
  for (unsigned i = 0; i < 10; ++i) store.append(rowFor(i));
  EXPECT_EQ(store.size(), 10u);
  for (unsigned i = 0; i < 10; ++i) expectRow(store, i, i);
  std::size_t columns = 0;
  store.forEachColumn([&](const auto& column) {
    EXPECT_EQ(column.size(), 10u);
    ++columns;
  });
  EXPECT_EQ(columns, 8u);
  EXPECT_GE(store.bytes(), 10u * static_cast<std::size_t>(kAgentColumnBytes));
}

TEST(AgentStore, RemovalCompactsStablyAcrossAllColumns) {
  AgentStore store;
  for (unsigned i = 0; i < 12; ++i) store.append(rowFor(i));
  const std::vector<std::size_t> removed{0, 3, 4, 11};
  store.removeSorted(removed);
  const std::vector<unsigned> kept{1, 2, 5, 6, 7, 8, 9, 10};
  ASSERT_EQ(store.size(), kept.size());
  for (std::size_t d = 0; d < kept.size(); ++d) expectRow(store, d, kept[d]);
  store.removeSorted({});  // Nothing to remove: unchanged.
  EXPECT_EQ(store.size(), kept.size());
}

TEST(AgentStore, GatherThenScatterRestoresWhatTheStepWrites) {
  AgentStore dense;
  for (unsigned i = 0; i < 1000; ++i) dense.append(rowFor(i));
  std::vector<int> order(1000);
  for (int k = 0; k < 1000; ++k) order[static_cast<std::size_t>(k)] = (k * 337) % 1000;  // A permutation.
  AgentStore sorted;
  gatherAgents(sorted, dense, order, 2);
  for (std::size_t k = 0; k < order.size(); ++k) expectRow(sorted, k, static_cast<unsigned>(order[k]));

  // A step changes the columns it writes; scattering brings exactly those back.
  for (std::size_t k = 0; k < sorted.size(); ++k) {
    sorted.position[k] += Vec2(1000.0f, 0.0f);
    sorted.flags[k] = 9;
  }
  AgentStore result = dense;
  scatterAgents(result, sorted, order, 2);
  for (unsigned i = 0; i < 1000; ++i) {
    EXPECT_EQ(result.position[i], rowFor(i).position + Vec2(1000.0f, 0.0f));
    EXPECT_EQ(result.flags[i], 9);
    EXPECT_EQ(result.goal[i], rowFor(i).goal);
    EXPECT_EQ(result.id[i], rowFor(i).id);
  }
}

}  // namespace
}  // namespace crowd
