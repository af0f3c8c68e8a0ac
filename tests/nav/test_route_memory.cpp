// Route planning's memory (RouteMemory, memoryBudget): the estimate as the planner allocates,
// fewer search threads within a tight budget (the same routes), a refusal with the estimate when
// one thread does not fit (the searches kept one per thread, not per radius), and
// CROWD_MEMORY_LIMIT read as a size.
#include <cstdlib>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include <crowd/memory_budget.hpp>
#include <crowd/route_planner.hpp>

#include "route_test_helpers.hpp"

namespace crowd {
namespace {

using test::request;

// Sets CROWD_MEMORY_LIMIT for one test, restoring it after.
class MemoryLimit {
 public:
  explicit MemoryLimit(const char* value) {
    if (const char* old = std::getenv("CROWD_MEMORY_LIMIT")) old_ = old;
    setenv("CROWD_MEMORY_LIMIT", value, 1);
  }
  ~MemoryLimit() {
    if (old_.empty()) {
      unsetenv("CROWD_MEMORY_LIMIT");
    } else {
      setenv("CROWD_MEMORY_LIMIT", old_.c_str(), 1);
    }
  }

 private:
  std::string old_;
};

// 40 agents with goals of their own across an open 512 x 512 map: 3 blocks of A* work.
std::vector<RouteRequest> crossings(float radius) {
  std::vector<RouteRequest> requests;
  for (int i = 0; i < 40; ++i) {
    requests.push_back(request(Vec2(static_cast<float>(i) + 0.5f, 1.5f),
                               {Vec2(510.5f - static_cast<float>(i), 510.5f)}, radius));
  }
  return requests;
}

constexpr std::uint64_t kCells = 512 * 512;

TEST(RouteMemory, EstimateCountsClearanceMapsGraphsSearchesAndFields) {
  RouteMemory memory;
  memory.cells = 4096 * 4096;
  memory.radii = 1;
  memory.graphs = 1;
  memory.searches = 1;
  // 3 + 4 (while built) + 1 + 16 bytes a cell.
  EXPECT_EQ(memory.bytes(), memory.cells * 24);
  // Two radii on two threads: two workspaces, shared by the radii (they were 4 searches of 18
  // bytes a cell, one per radius and thread).
  memory.radii = 2;
  memory.graphs = 2;
  memory.searches = 2;
  memory.fields = 1;
  EXPECT_EQ(memory.bytes(), memory.cells * (6 + 4 + 2 + 32 + 13));
  const std::string text = memory.describe(4096, 4096);
  EXPECT_NE(
      text.find("for a 4096 x 4096 map: 2 clearance maps (one per agent radius), 2 search graphs (one per "
                "radius searched, 1 byte a cell), 2 A* searches (one per thread, shared by every radius, 16 "
                "bytes a cell), 1 goal field"),
      std::string::npos)
      << text;
}

TEST(RouteMemory, FewerThreadsSearchWithinTheBudgetAndPlanTheSameRoutes) {
  const GridMap map(512, 512);
  const std::vector<RouteRequest> requests = crossings(0.3f);
  const RouteSet free = planRoutes(map, requests, {}, 2);
  EXPECT_EQ(free.threads, 2);
  EXPECT_TRUE(free.threadsWarning.empty());
  // Room for one thread's search, not two.
  const MemoryLimit limit(std::to_string(kCells * (3 + 4 + 1 + 16) + kCells * 9).c_str());
  const RouteSet tight = planRoutes(map, requests, {}, 2);
  EXPECT_EQ(tight.threads, 1);
  EXPECT_NE(tight.threadsWarning.find("routes searched on 1 of 2 threads"), std::string::npos);
  EXPECT_EQ(tight.points, free.points);
  EXPECT_EQ(tight.offsets, free.offsets);
}

TEST(RouteMemory, PlanningPastTheBudgetIsRefusedWithTheEstimate) {
  const GridMap map(512, 512);
  std::vector<RouteRequest> requests = crossings(0.3f);
  requests.push_back(request(Vec2(3.5f, 3.5f), {Vec2(400.5f, 3.5f)}, 0.6f));
  const MemoryLimit limit("1M");
  try {
    (void)planRoutes(map, requests, {}, 1);
    FAIL() << "planned past the budget";
  } catch (const MemoryBudgetError& error) {
    const std::string text = error.what();
    // 2 clearance maps (3 bytes a cell, 4 while built), 2 graphs (1), 1 workspace (16).
    EXPECT_NE(text.find("needs about 7.0 MiB for a 512 x 512 map: 2 clearance maps"), std::string::npos)
        << text;
    EXPECT_NE(text.find("more than the memory budget of 1.0 MiB (CROWD_MEMORY_LIMIT)"), std::string::npos)
        << text;
  }
}

// A planner that searched two radii on two threads holds two workspaces, not four: the refusal
// of its next call counts them so.
TEST(RouteMemory, KeptSearchesAreOnePerThreadForAllRadii) {
  const GridMap map(512, 512);
  std::vector<RouteRequest> requests = crossings(0.3f);
  const std::vector<RouteRequest> wider = crossings(0.6f);
  requests.insert(requests.end(), wider.begin(), wider.end());
  RoutePlanner planner(map);
  ASSERT_EQ(planner.plan(requests, 2).threads, 2);
  const MemoryLimit limit("1M");
  try {
    (void)planner.plan(requests, 2);
    FAIL() << "planned past the budget";
  } catch (const MemoryBudgetError& error) {
    const std::string text = error.what();
    EXPECT_NE(
        text.find("needs about 11.0 MiB for a 512 x 512 map: 2 clearance maps (one per agent radius), 2 "
                  "search graphs (one per radius searched, 1 byte a cell), 2 A* searches (one per "
                  "thread, shared by every radius, 16 bytes a cell), 0 goal fields"),
        std::string::npos)
        << text;
  }
}

TEST(RouteMemory, BudgetReadsSizesAndRefusesOthers) {
  {
    const MemoryLimit limit("512M");
    EXPECT_EQ(memoryBudget(), std::uint64_t{512} << 20);
    EXPECT_EQ(memoryBudgetSource(), "CROWD_MEMORY_LIMIT");
  }
  {
    const MemoryLimit limit("12345");
    EXPECT_EQ(memoryBudget(), 12345u);
  }
  for (const char* bad : {"", "0", "-5", "12X", "1.5G", "99999999999999999999"}) {
    const MemoryLimit limit(bad);
    EXPECT_THROW((void)memoryBudget(), std::invalid_argument) << bad;
  }
  EXPECT_EQ(formatBytes(512), "512 B");
  EXPECT_EQ(formatBytes(1.5 * 1024 * 1024 * 1024), "1.5 GiB");
}

}  // namespace
}  // namespace crowd
