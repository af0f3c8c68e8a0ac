// Grid A*: lengths, the corner rule, heuristics, buffer reuse; the Dijkstra goal field; line of
// sight and path smoothing.
#include <cmath>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include <crowd/grid_astar.hpp>

namespace crowd {
namespace {

GridMap rowsMap(const std::vector<std::string>& rows) {
  return GridMap::fromRows(rows, "rows");
}

GridMap randomMap(std::mt19937& rng, int width, int height, double density) {
  GridMap map(width, height);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  for (int y = 0; y < height; ++y) {
    for (int x = 0; x < width; ++x) map.setPassable(GridCell{x, y}, unit(rng) >= density);
  }
  return map;
}

GridCell randomFreeCell(std::mt19937& rng, const GridMap& map) {
  while (true) {
    const GridCell c{static_cast<int>(rng() % static_cast<unsigned>(map.width())),
                     static_cast<int>(rng() % static_cast<unsigned>(map.height()))};
    if (map.passable(c)) return c;
  }
}

// Every step of `path` is a move the rules allow; returns the summed cost (-1 if a step is not).
double pathCost(const GridMap& map, const std::vector<GridCell>& path, GridMoveRules rules) {
  double cost = 0.0;
  for (std::size_t i = 0; i < path.size(); ++i) {
    if (!map.passable(path[i])) return -1.0;
    if (i == 0) continue;
    const int dx = path[i].x - path[i - 1].x;
    const int dy = path[i].y - path[i - 1].y;
    if (std::abs(dx) > 1 || std::abs(dy) > 1 || (dx == 0 && dy == 0)) return -1.0;
    if (dx != 0 && dy != 0) {
      if (!rules.diagonal) return -1.0;
      const bool sidesFree =
          map.passable(path[i - 1].x + dx, path[i - 1].y) && map.passable(path[i - 1].x, path[i - 1].y + dy);
      if (!rules.cornerCutting && !sidesFree) return -1.0;
      cost += kSqrt2;
    } else {
      cost += 1.0;
    }
  }
  return cost;
}

TEST(GridAstar, OpenGridLengthIsOctileDistance) {
  const GridMap map(20, 12);
  GridAstar astar(map);
  std::vector<GridCell> path;
  const GridPathResult r = astar.findPath(GridCell{1, 2}, GridCell{15, 7}, &path);
  EXPECT_NEAR(r.length, 9.0 + 5.0 * kSqrt2, 1e-12);
  EXPECT_NEAR(pathCost(map, path, {}), r.length, 1e-12);
  EXPECT_EQ(path.front(), (GridCell{1, 2}));
  EXPECT_EQ(path.back(), (GridCell{15, 7}));
  // Ties broken towards larger g: on open ground only the path itself is expanded.
  EXPECT_EQ(r.expanded, static_cast<std::int64_t>(path.size()) - 1);
}

TEST(GridAstar, CornerCuttingIsOffByDefault) {
  const GridMap corner = rowsMap({"..", "@."});
  GridAstar strict(corner);
  EXPECT_DOUBLE_EQ(strict.findPath(GridCell{0, 0}, GridCell{1, 1}).length, 2.0);
  AstarOptions cutting;
  cutting.moves.cornerCutting = true;
  GridAstar loose(corner, cutting);
  EXPECT_DOUBLE_EQ(loose.findPath(GridCell{0, 0}, GridCell{1, 1}).length, kSqrt2);
  // Between two blocked cells that touch at a corner: no way through without cutting.
  const GridMap squeeze = rowsMap({".@", "@."});
  EXPECT_EQ(GridAstar(squeeze).findPath(GridCell{0, 0}, GridCell{1, 1}).length, -1.0);
  EXPECT_DOUBLE_EQ(GridAstar(squeeze, cutting).findPath(GridCell{0, 0}, GridCell{1, 1}).length, kSqrt2);
}

TEST(GridAstar, UnreachableAndTrivialQueries) {
  const GridMap map = rowsMap({"..@..", "..@..", "..@.."});
  GridAstar astar(map);
  std::vector<GridCell> path{GridCell{9, 9}};
  GridPathResult r = astar.findPath(GridCell{0, 0}, GridCell{4, 2}, &path);
  EXPECT_EQ(r.length, -1.0);
  EXPECT_FALSE(r.found());
  EXPECT_GT(r.expanded, 0);
  EXPECT_TRUE(path.empty());
  r = astar.findPath(GridCell{1, 1}, GridCell{1, 1}, &path);
  EXPECT_EQ(r.length, 0.0);
  ASSERT_EQ(path.size(), 1u);
  EXPECT_EQ(astar.findPath(GridCell{2, 0}, GridCell{0, 0}).length, -1.0);  // Blocked start.
  EXPECT_EQ(astar.findPath(GridCell{0, 0}, GridCell{2, 1}).length, -1.0);  // Blocked goal.
  EXPECT_THROW(astar.findPath(GridCell{5, 0}, GridCell{0, 0}), std::out_of_range);
  EXPECT_THROW(astar.findPath(GridCell{0, 0}, GridCell{0, -1}), std::out_of_range);
}

// A* with every heuristic, reusing one object for many queries, against Dijkstra from the goal.
TEST(GridAstar, MatchesDijkstraOnRandomMaps) {
  std::mt19937 rng(11);
  std::int64_t octileExpanded = 0;
  std::int64_t euclideanExpanded = 0;
  for (int trial = 0; trial < 12; ++trial) {
    const GridMap map = randomMap(rng, 20 + trial * 3, 15 + trial * 2, 0.15 + 0.03 * trial);
    for (const bool diagonal : {true, false}) {
      GridMoveRules rules;
      rules.diagonal = diagonal;
      rules.cornerCutting = trial % 3 == 0;
      AstarOptions octile{rules, GridHeuristic::Octile};
      AstarOptions euclidean{rules, GridHeuristic::Euclidean};
      AstarOptions manhattan{rules, GridHeuristic::Manhattan};
      GridAstar a(map, octile), b(map, euclidean), c(map, manhattan);
      for (int q = 0; q < 25; ++q) {
        const GridCell start = randomFreeCell(rng, map);
        const GridCell goal = randomFreeCell(rng, map);
        const GoalField field(map, std::span<const GridCell>(&goal, 1), rules);
        const float best = field.distance(start);
        std::vector<GridCell> path;
        const GridPathResult ra = a.findPath(start, goal, &path);
        const GridPathResult rb = b.findPath(start, goal);
        const GridPathResult rc = c.findPath(start, goal);
        if (std::isinf(best)) {
          EXPECT_FALSE(ra.found());
          EXPECT_FALSE(rb.found());
          EXPECT_FALSE(rc.found());
          continue;
        }
        ASSERT_TRUE(ra.found());
        EXPECT_NEAR(ra.length, best, 1e-4);
        EXPECT_NEAR(rb.length, best, 1e-4);
        EXPECT_NEAR(pathCost(map, path, rules), ra.length, 1e-9);
        octileExpanded += ra.expanded;
        euclideanExpanded += rb.expanded;
        // Manhattan is admissible only without diagonal moves.
        if (!diagonal) {
          EXPECT_NEAR(rc.length, best, 1e-4);
        } else {
          EXPECT_GE(rc.length, best - 1e-4);
        }
      }
    }
  }
  EXPECT_LT(octileExpanded, euclideanExpanded) << "octile is the tighter bound";
}

TEST(GridAstar, ResultsDoNotDependOnEarlierQueries) {
  std::mt19937 rng(5);
  const GridMap map = randomMap(rng, 64, 64, 0.3);
  GridAstar reused(map);
  for (int q = 0; q < 200; ++q) {
    const GridCell start = randomFreeCell(rng, map);
    const GridCell goal = randomFreeCell(rng, map);
    GridAstar fresh(map);
    const GridPathResult a = reused.findPath(start, goal);
    const GridPathResult b = fresh.findPath(start, goal);
    EXPECT_EQ(a.length, b.length);
    EXPECT_EQ(a.expanded, b.expanded);
  }
}

// One workspace taking turns between the graphs of different maps (two of one size, one
// larger, one smaller) answers every query as a GridAstar of the map's own does: paths, lengths
// and expansions, whatever the previous query searched.
TEST(AstarWorkspace, OneWorkspaceServesSeveralGraphs) {
  std::mt19937 rng(9);
  const std::vector<GridMap> maps{randomMap(rng, 64, 48, 0.25), randomMap(rng, 64, 48, 0.35),
                                  randomMap(rng, 90, 70, 0.3), randomMap(rng, 20, 30, 0.2)};
  const GridMoveRules rules{};
  std::vector<GridGraph> graphs;
  for (const GridMap& map : maps) graphs.emplace_back(map, rules);
  AstarWorkspace shared(maps[0].cellCount());
  EXPECT_EQ(shared.cellCapacity(), maps[0].cellCount());
  std::vector<GridCell> sharedPath;
  std::vector<GridCell> ownPath;
  int found = 0;
  for (int q = 0; q < 240; ++q) {
    const auto m = static_cast<std::size_t>(q % 4 == 3 ? (q / 4) % 4 : q % 3);
    const GridMap& map = maps[m];
    const GridCell start = randomFreeCell(rng, map);
    const GridCell goal = randomFreeCell(rng, map);
    const GridPathResult a = shared.findPath(graphs[m], GridHeuristic::Octile, start, goal, &sharedPath);
    GridAstar own(map);
    const GridPathResult b = own.findPath(start, goal, &ownPath);
    EXPECT_EQ(a.length, b.length) << "query " << q;
    EXPECT_EQ(a.expanded, b.expanded) << "query " << q;
    ASSERT_EQ(sharedPath.size(), ownPath.size()) << "query " << q;
    for (std::size_t k = 0; k < ownPath.size(); ++k) {
      EXPECT_TRUE(sharedPath[k].x == ownPath[k].x && sharedPath[k].y == ownPath[k].y) << "query " << q;
    }
    found += b.found() ? 1 : 0;
  }
  EXPECT_GT(found, 120);
  // It grew to the largest map searched.
  EXPECT_EQ(shared.cellCapacity(), maps[2].cellCount());
  EXPECT_THROW(shared.findPath(graphs[3], GridHeuristic::Octile, GridCell{0, 0}, GridCell{20, 0}),
               std::out_of_range);
}

TEST(GoalField, NextCellWalksDownhillToTheNearestGoal) {
  std::mt19937 rng(3);
  const GridMap map = randomMap(rng, 48, 40, 0.3);
  const std::vector<GridCell> goals{randomFreeCell(rng, map), randomFreeCell(rng, map)};
  const GoalField field(map, goals);
  EXPECT_EQ(field.width(), 48);
  EXPECT_EQ(field.height(), 40);
  GridAstar astar(map);
  for (int y = 0; y < map.height(); ++y) {
    for (int x = 0; x < map.width(); ++x) {
      const GridCell c{x, y};
      const float distance = field.distance(c);
      if (!map.passable(c)) {
        EXPECT_TRUE(std::isinf(distance));
        EXPECT_FALSE(field.next(c));
        continue;
      }
      const double a0 = astar.findPath(c, goals[0]).length;
      const double a1 = astar.findPath(c, goals[1]).length;
      if (a0 < 0.0 && a1 < 0.0) {
        EXPECT_TRUE(std::isinf(distance));
        EXPECT_EQ(field.direction(map.index(c)), GoalField::kUnreachable);
        continue;
      }
      const double nearest = a0 < 0.0 ? a1 : a1 < 0.0 ? a0 : std::min(a0, a1);
      EXPECT_NEAR(distance, nearest, 1e-4);
      // Following next() reaches a goal along moves whose costs add up to the distance.
      std::vector<GridCell> walk{c};
      while (field.next(walk.back()) != walk.back()) {
        walk.push_back(*field.next(walk.back()));
        ASSERT_LE(walk.size(), map.cellCount());
      }
      EXPECT_TRUE(walk.back() == goals[0] || walk.back() == goals[1]);
      EXPECT_NEAR(pathCost(map, walk, {}), distance, 1e-4);
    }
  }
  EXPECT_EQ(field.next(goals[0]), goals[0]);
  EXPECT_EQ(field.direction(map.index(goals[0])), GoalField::kAtGoal);
  EXPECT_FALSE(field.next(GridCell{-1, 0}));
  EXPECT_TRUE(std::isinf(field.distance(GridCell{48, 0})));
}

TEST(GoalField, RefusesBadGoals) {
  const GridMap map = rowsMap({"..@", "..."});
  EXPECT_THROW(GoalField(map, std::vector<GridCell>{}), std::invalid_argument);
  EXPECT_THROW(GoalField(map, std::vector<GridCell>{GridCell{2, 0}}), std::invalid_argument);
  EXPECT_THROW(GoalField(map, std::vector<GridCell>{GridCell{3, 0}}), std::out_of_range);
}

TEST(LineOfSight, FollowsTheCellsTheSegmentTouches) {
  const GridMap map = rowsMap({"......", "..@...", "......", ".@....", "..@..."});
  EXPECT_TRUE(lineOfSight(map, GridCell{0, 0}, GridCell{5, 0}));
  EXPECT_FALSE(lineOfSight(map, GridCell{0, 1}, GridCell{5, 1}));
  EXPECT_TRUE(lineOfSight(map, GridCell{0, 2}, GridCell{5, 2}));
  EXPECT_TRUE(lineOfSight(map, GridCell{3, 3}, GridCell{3, 3}));
  EXPECT_FALSE(lineOfSight(map, GridCell{2, 1}, GridCell{0, 0}));  // From a blocked cell.
  // Exactly through the corner between (1, 3) and (2, 4): both beside the diagonal are needed.
  EXPECT_FALSE(lineOfSight(map, GridCell{1, 4}, GridCell{2, 3}));
  EXPECT_FALSE(lineOfSight(map, GridCell{0, 5 - 1}, GridCell{3, 1}));
  // A shallow segment grazing past the blocked cell (2, 1) through cells beside it.
  EXPECT_FALSE(lineOfSight(map, GridCell{0, 0}, GridCell{5, 2}));
  EXPECT_TRUE(lineOfSight(map, GridCell{3, 0}, GridCell{5, 4}));
  std::mt19937 rng(9);
  const GridMap random = randomMap(rng, 30, 30, 0.2);
  for (int q = 0; q < 500; ++q) {
    const GridCell a = randomFreeCell(rng, random);
    const GridCell b = randomFreeCell(rng, random);
    EXPECT_EQ(lineOfSight(random, a, b), lineOfSight(random, b, a));
  }
}

TEST(SmoothPath, KeepsEveryLegInSight) {
  const GridMap open(30, 30);
  GridAstar openAstar(open);
  std::vector<GridCell> path;
  openAstar.findPath(GridCell{0, 0}, GridCell{29, 17}, &path);
  EXPECT_EQ(smoothPath(open, path), (std::vector<GridCell>{GridCell{0, 0}, GridCell{29, 17}}));

  std::mt19937 rng(21);
  for (int trial = 0; trial < 20; ++trial) {
    const GridMap map = randomMap(rng, 40, 40, 0.25);
    GridAstar astar(map);
    const GridCell start = randomFreeCell(rng, map);
    const GridCell goal = randomFreeCell(rng, map);
    if (!astar.findPath(start, goal, &path).found()) continue;
    const std::vector<GridCell> waypoints = smoothPath(map, path);
    ASSERT_FALSE(waypoints.empty());
    EXPECT_EQ(waypoints.front(), start);
    EXPECT_EQ(waypoints.back(), goal);
    EXPECT_LE(waypoints.size(), path.size());
    std::size_t along = 0;  // Waypoints appear in path order.
    for (std::size_t w = 0; w < waypoints.size(); ++w) {
      while (along < path.size() && !(path[along] == waypoints[w])) ++along;
      ASSERT_LT(along, path.size()) << "waypoint " << w << " is not on the path";
      if (w > 0) {
        EXPECT_TRUE(lineOfSight(map, waypoints[w - 1], waypoints[w]));
      }
    }
    const std::vector<Vec2> points = cellCenters(map, waypoints);
    ASSERT_EQ(points.size(), waypoints.size());
    EXPECT_EQ(points.front(), map.cellCenter(start));
  }
  EXPECT_TRUE(smoothPath(open, std::vector<GridCell>{}).empty());
  EXPECT_EQ(smoothPath(open, std::vector<GridCell>{GridCell{1, 1}}).size(), 1u);
}

}  // namespace
}  // namespace crowd
