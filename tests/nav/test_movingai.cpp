// The Moving AI grid benchmarks (../shared/data/movingai, not in the repository): A* without
// corner cutting must find every listed optimal length, within the files' rounding
// (matchesListedLength). Skipped when the data is not there.
//
// Small sets run whole; the big ones run an evenly spread sample (every k-th problem of the
// file, which is sorted by length, so every length range is in it) to keep the test to seconds.
// Sanitizer and unoptimised builds take a sparser sample. CROWD_MOVINGAI_ALL=1 runs every
// problem of every set (about two billion expansions: minutes).
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include <crowd/grid_astar.hpp>
#include <crowd/grid_map.hpp>

#if defined(__SANITIZE_ADDRESS__)
#define CROWD_SLOW_BUILD 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(undefined_behavior_sanitizer)
#define CROWD_SLOW_BUILD 1
#endif
#endif
#if !defined(CROWD_SLOW_BUILD) && !defined(NDEBUG)
#define CROWD_SLOW_BUILD 1
#endif

namespace crowd {
namespace {

std::filesystem::path dataDir() {
  return std::filesystem::path(CROWD_SHARED_DATA_DIR) / "movingai";
}

// Every `stride`-th problem, from the first; stride 1 is all of them.
std::size_t sampleStride(std::size_t releaseStride) {
  const char* all = std::getenv("CROWD_MOVINGAI_ALL");
  if (all != nullptr && std::string(all) == "1") return 1;
#ifdef CROWD_SLOW_BUILD
  return releaseStride * 8;
#else
  return releaseStride;
#endif
}

void solveSet(const std::string& name, std::size_t releaseStride) {
  const std::filesystem::path dir = dataDir();
  const std::filesystem::path mapPath = dir / (name + ".map");
  const std::filesystem::path scenPath = dir / (name + ".map.scen");
  if (!std::filesystem::exists(mapPath) || !std::filesystem::exists(scenPath)) {
    GTEST_SKIP() << "no Moving AI data: " << mapPath << " and its .scen are not there";
  }
  const GridMap map = GridMap::loadMovingAi(mapPath.string());
  const std::vector<MovingAiProblem> problems = loadMovingAiScenario(scenPath.string());
  ASSERT_FALSE(problems.empty());
  GridAstar astar(map);
  const std::size_t stride = sampleStride(releaseStride);
  std::size_t solved = 0;
  std::size_t matched = 0;
  std::int64_t expanded = 0;
  const auto begin = std::chrono::steady_clock::now();
  for (std::size_t i = 0; i < problems.size(); i += stride) {
    const MovingAiProblem& p = problems[i];
    ASSERT_EQ(p.mapWidth, map.width()) << "line " << p.line;
    ASSERT_EQ(p.mapHeight, map.height()) << "line " << p.line;
    ASSERT_EQ(std::filesystem::path(p.mapName).filename().string(), name + ".map") << "line " << p.line;
    const GridPathResult r = astar.findPath(p.start, p.goal);
    ++solved;
    expanded += r.expanded;
    if (matchesListedLength(r.length, p.optimalLength)) {
      ++matched;
    } else {
      ADD_FAILURE() << name << ".map.scen line " << p.line << ": (" << p.start.x << ", " << p.start.y
                    << ") to (" << p.goal.x << ", " << p.goal.y << "): length " << r.length << ", listed "
                    << p.optimalLength;
    }
  }
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
  EXPECT_EQ(matched, solved);
  std::printf(
      "%s: %zu of %zu problems run (every %zu), %zu matched; %.1f us per query, %.2f million expansions/s\n",
      name.c_str(), solved, problems.size(), stride, matched, 1e6 * seconds / static_cast<double>(solved),
      static_cast<double>(expanded) / seconds / 1e6);
}

TEST(MovingAi, Arena) {
  solveSet("arena", 1);
}
TEST(MovingAi, Berlin) {
  solveSet("Berlin_0_256", 1);
}
TEST(MovingAi, Den520d) {
  solveSet("den520d", 1);
}
TEST(MovingAi, Random10) {
  solveSet("random512-10-0", 1);
}
TEST(MovingAi, Random25) {
  solveSet("random512-25-0", 3);
}
TEST(MovingAi, Rooms) {
  solveSet("8room_000", 3);
}
TEST(MovingAi, Maze1) {
  solveSet("maze512-1-0", 10);
}
TEST(MovingAi, Maze32) {
  solveSet("maze512-32-9", 25);
}

TEST(MovingAi, ScenarioErrorsNameTheLine) {
  try {
    parseMovingAiScenario("version 1\n0\tm.map\t4\t4\t0\t0\t1\tx\t1.0\n", "s.scen");
    ADD_FAILURE() << "no error";
  } catch (const GridMapError& e) {
    EXPECT_EQ(e.line(), 2);
    EXPECT_EQ(e.column(), 19);
    EXPECT_NE(e.reason().find("goal y"), std::string::npos) << e.what();
  }
  EXPECT_THROW(parseMovingAiScenario("0\tm.map\t4\t4\t0\t0\t1\t1\t1.0\n", "s.scen"), GridMapError);
  EXPECT_THROW(parseMovingAiScenario("version 1\n0\tm.map\t4\t4\t0\t0\t1\t1\n", "s.scen"), GridMapError);
  EXPECT_THROW(parseMovingAiScenario("version 1\n0\tm.map\t4\t4\t0\t0\t1\t1\tnan\n", "s.scen"), GridMapError);
  const std::vector<MovingAiProblem> problems =
      parseMovingAiScenario("version 1\r\n3\tmaps/m.map\t4\t5\t0\t1\t2\t3\t2.82842712\r\n\r\n", "s.scen");
  ASSERT_EQ(problems.size(), 1u);
  EXPECT_EQ(problems[0].bucket, 3);
  EXPECT_EQ(problems[0].mapName, "maps/m.map");
  EXPECT_EQ(problems[0].mapWidth, 4);
  EXPECT_EQ(problems[0].mapHeight, 5);
  EXPECT_EQ(problems[0].start, (GridCell{0, 1}));
  EXPECT_EQ(problems[0].goal, (GridCell{2, 3}));
  EXPECT_DOUBLE_EQ(problems[0].optimalLength, 2.82842712);
  EXPECT_EQ(problems[0].line, 2);
}

TEST(MovingAi, ToleranceFollowsTheListedPrecision) {
  EXPECT_TRUE(matchesListedLength(670.98744, 670.987));  // 6 significant digits.
  EXPECT_TRUE(matchesListedLength(4786.0004, 4786.0));
  EXPECT_TRUE(matchesListedLength(2.82842712, 2.8284271247));
  EXPECT_FALSE(matchesListedLength(2.8286, 2.8284271247));
  EXPECT_FALSE(matchesListedLength(671.573, 670.987));  // A real difference: 2 - sqrt(2).
  EXPECT_FALSE(matchesListedLength(-1.0, 3.0));
}

}  // namespace
}  // namespace crowd
