// Grid maps: Moving AI and row parsing with their error places, world placement, and the
// outlines of blocked regions as obstacle polygons.
#include <algorithm>
#include <cmath>
#include <filesystem>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include <crowd/grid_map.hpp>
#include <crowd/obstacles.hpp>

namespace crowd {
namespace {

using Outlines = std::vector<std::vector<Vec2>>;

const char* const kSmallMap =
    "type octile\n"
    "height 3\n"
    "width 4\n"
    "map\n"
    ".GS@\n"
    "OTW.\n"
    "....\n";

// The error a parse throws; fails the test when it throws none.
GridMapError parseError(const std::string& text) {
  try {
    GridMap::parseMovingAi(text, "m.map");
  } catch (const GridMapError& e) {
    return e;
  }
  ADD_FAILURE() << "no error for:\n" << text;
  return GridMapError("m.map", 0, 0, "none");
}

// Whether the centre of every cell is inside the solid exactly when the cell is blocked. The
// solid holds a point when (wall at the edge ? 1 : 0) plus the outlines' winding numbers around
// it is 1 (grid_map.hpp); the winding numbers come from one sweep along each row of centres.
// Also checks that the sum is always 0 or 1. Returns the number of wrong cells.
int wrongCells(const GridMap& map, const Outlines& outlines, bool wallAtMapEdge) {
  int wrong = 0;
  struct Crossing {
    double x;
    int up;
  };
  std::vector<Crossing> crossings;
  for (int row = 0; row < map.height(); ++row) {
    const double y = map.cellCenter(GridCell{0, row}).y;
    crossings.clear();
    for (const std::vector<Vec2>& polygon : outlines) {
      for (std::size_t i = 0; i < polygon.size(); ++i) {
        const Vec2 a = polygon[i];
        const Vec2 b = polygon[(i + 1) % polygon.size()];
        // Half-open in y, so a vertex on the line counts once.
        if ((a.y <= y) == (b.y <= y)) continue;
        const double t = (y - a.y) / (static_cast<double>(b.y) - a.y);
        crossings.push_back(Crossing{a.x + t * (static_cast<double>(b.x) - a.x), b.y > a.y ? 1 : -1});
      }
    }
    std::sort(crossings.begin(), crossings.end(),
              [](const Crossing& p, const Crossing& q) { return p.x < q.x; });
    // Winding number left of everything is 0; passing an upward edge (right of a
    // counter-clockwise interior) lowers it, a downward one raises it.
    int winding = 0;
    std::size_t next = 0;
    for (int x = 0; x < map.width(); ++x) {
      const double cx = map.cellCenter(GridCell{x, row}).x;
      while (next < crossings.size() && crossings[next].x < cx) winding -= crossings[next++].up;
      const int solid = (wallAtMapEdge ? 1 : 0) + winding;
      if (solid != 0 && solid != 1) ++wrong;
      if ((solid == 1) != !map.passable(x, row)) ++wrong;
    }
  }
  return wrong;
}

// Every outline is a valid polygon for ObstacleSet, and all of them go in.
void expectValidPolygons(const Outlines& outlines) {
  ObstacleSet set;
  for (std::size_t p = 0; p < outlines.size(); ++p) {
    ASSERT_EQ(checkPolygon(outlines[p]), "") << "outline " << p << " of " << outlines.size();
    set.addPolygon(outlines[p]);
  }
}

GridMap rowsMap(const std::vector<std::string>& rows) {
  return GridMap::fromRows(rows, "rows");
}

TEST(GridMap, ParsesMovingAiCharacters) {
  const GridMap map = GridMap::parseMovingAi(kSmallMap, "m.map");
  ASSERT_EQ(map.width(), 4);
  ASSERT_EQ(map.height(), 3);
  const char* const rows[] = {".GS@", "OTW.", "...."};
  for (int y = 0; y < 3; ++y) {
    for (int x = 0; x < 4; ++x)
      EXPECT_EQ(map.passable(x, y), GridMap::passableChar(rows[y][x])) << x << "," << y;
  }
  EXPECT_FALSE(map.passable(-1, 0));
  EXPECT_FALSE(map.passable(4, 0));
  EXPECT_EQ(map.passableCount(), 8u);
  EXPECT_EQ(map.index(GridCell{1, 2}), 9u);
  EXPECT_EQ(map.cellOf(9), (GridCell{1, 2}));
}

TEST(GridMap, AcceptsCrlfAndHeaderInAnyOrder) {
  std::string crlf;
  for (const char* c = kSmallMap; *c != '\0'; ++c)
    crlf += *c == '\n' ? std::string("\r\n") : std::string(1, *c);
  const GridMap a = GridMap::parseMovingAi(kSmallMap, "m.map");
  const GridMap b = GridMap::parseMovingAi(crlf, "m.map");
  const GridMap c = GridMap::parseMovingAi("width 4\nheight 3\ntype octile\nmap\n.GS@\nOTW.\n....", "m.map");
  EXPECT_TRUE(std::equal(a.cells().begin(), a.cells().end(), b.cells().begin(), b.cells().end()));
  EXPECT_TRUE(std::equal(a.cells().begin(), a.cells().end(), c.cells().begin(), c.cells().end()));
}

TEST(GridMap, ErrorsNameLineAndColumn) {
  GridMapError e = parseError("type octile\nheight 3\nwidth 4\nmap\n.GS@\nOT#.\n....\n");
  EXPECT_EQ(e.line(), 6);
  EXPECT_EQ(e.column(), 3);
  EXPECT_NE(std::string(e.what()).find("m.map:6:3: '#' is not a map character"), std::string::npos)
      << e.what();

  e = parseError("type octile\nheight 3\nwidth 4\nmap\n.GS@\nOT.\n....\n");  // Short row.
  EXPECT_EQ(e.line(), 6);
  EXPECT_EQ(e.column(), 4);
  e = parseError("type octile\nheight 3\nwidth 4\nmap\n.GS@\nOT...\n....\n");  // Long row.
  EXPECT_EQ(e.line(), 6);
  EXPECT_EQ(e.column(), 5);
  e = parseError("type octile\nheight 3\nwidth 4\nmap\n.GS@\n");
  EXPECT_EQ(e.line(), 6);
  EXPECT_NE(e.reason().find("ends after 1 of 3 rows"), std::string::npos) << e.what();
  e = parseError("type tile\nheight 3\nwidth 4\nmap\n");
  EXPECT_EQ(e.line(), 1);
  EXPECT_EQ(e.column(), 6);
  e = parseError("type octile\nheight x3\nwidth 4\nmap\n");
  EXPECT_EQ(e.line(), 2);
  EXPECT_EQ(e.column(), 8);
  e = parseError("type octile\nheight 3\nmap\n");
  EXPECT_NE(e.reason().find("lacks 'width'"), std::string::npos) << e.what();
  e = parseError("type octile\nheight 1\nwidth 1\nmap\n.\n\n.\n");
  EXPECT_EQ(e.line(), 7);
  EXPECT_NE(e.reason().find("after the last"), std::string::npos) << e.what();
  e = parseError("type octile\nheight 1\nwidth 1\nmap\n\x01\n");
  EXPECT_NE(e.reason().find("byte 0x01"), std::string::npos) << e.what();
  // A NUL byte is named, not copied into the message (where it would end it).
  e = parseError(std::string("type octile\nheight 2\0\nwidth 2\nmap\n..\n..\n", 40));
  EXPECT_EQ(e.line(), 2);
  EXPECT_EQ(e.column(), 9);
  EXPECT_NE(std::string(e.what()).find("m.map:2:9: height must be a whole number in decimal digits; "
                                       "byte 0x00 is not a digit"),
            std::string::npos)
      << e.what();
  e = parseError(std::string("type oct\0ile\nheight 2\nwidth 2\nmap\n", 34));
  EXPECT_NE(std::string(e.what()).find("got 'oct[byte 0x00]ile'"), std::string::npos) << e.what();
  // A header claiming the largest map over no rows fails on the rows (before allocating cells).
  e = parseError("type octile\nheight 16384\nwidth 16384\nmap\n");
  EXPECT_EQ(e.line(), 5);
  EXPECT_NE(e.reason().find("ends after 0 of 16384 rows"), std::string::npos) << e.what();
  e = parseError("type octile\nheight 3\nwidth 2\nmap\n..\n.x\n");  // Rows checked in order.
  EXPECT_EQ(e.line(), 6);
  EXPECT_EQ(e.column(), 2);
  e = parseError("type octile\nsize 3\n");
  EXPECT_EQ(e.line(), 2);
  e = parseError("type octile\nheight 0\n");
  EXPECT_NE(e.reason().find("at least 1"), std::string::npos) << e.what();
}

TEST(GridMap, RefusesMapsOverTheSizeLimitWithTheLimit) {
  const std::string limit = std::to_string(grid_limits::kMaxSide);
  GridMapError e = parseError("type octile\nheight 3\nwidth 16385\nmap\n");
  EXPECT_EQ(e.line(), 3);
  EXPECT_NE(e.reason().find("width 16385 is over the map size limit of " + limit), std::string::npos)
      << e.what();
  e = parseError("type octile\nheight 99999999999999999999\nwidth 2\nmap\n");
  EXPECT_EQ(e.line(), 2);
  EXPECT_THROW(GridMap(grid_limits::kMaxSide + 1, 1), std::invalid_argument);
  const std::vector<std::string> wide(1,
                                      std::string(static_cast<std::size_t>(grid_limits::kMaxSide) + 1, '.'));
  try {
    GridMap::fromRows(wide, "scenario map");
    ADD_FAILURE() << "a row over the limit was taken";
  } catch (const GridMapError& error) {
    EXPECT_NE(std::string(error.what()).find(limit), std::string::npos) << error.what();
  }
}

TEST(GridMap, LoadNamesAMissingFile) {
  const std::string path = (std::filesystem::temp_directory_path() / "crowd_no_such_map.map").string();
  try {
    GridMap::loadMovingAi(path);
    ADD_FAILURE() << "no error";
  } catch (const GridMapError& e) {
    EXPECT_NE(std::string(e.what()).find(path + ": cannot read the map"), std::string::npos) << e.what();
  }
}

TEST(GridMap, FromRowsChecksEveryRow) {
  const GridMap map = rowsMap({"..@", "@.."});
  EXPECT_EQ(map.width(), 3);
  EXPECT_EQ(map.height(), 2);
  EXPECT_FALSE(map.passable(2, 0));
  EXPECT_FALSE(map.passable(0, 1));
  try {
    rowsMap({"...", "..", "..."});
    ADD_FAILURE() << "no error";
  } catch (const GridMapError& e) {
    EXPECT_EQ(e.line(), 2);
    EXPECT_EQ(e.column(), 3);
  }
  try {
    rowsMap({"...", "..x"});
    ADD_FAILURE() << "no error";
  } catch (const GridMapError& e) {
    EXPECT_EQ(std::string(e.what()),
              "rows:2:3: 'x' is not a map character (passable . G S, blocked @ O T W)");
  }
  EXPECT_THROW(rowsMap({}), GridMapError);
  EXPECT_THROW(rowsMap({""}), GridMapError);
}

TEST(GridMap, PlacesCellsInTheWorld) {
  GridMap map = rowsMap({"....", "...."});
  map.setPlacement(GridPlacement{0.5f, Vec2(10.0f, -2.0f)});
  EXPECT_EQ(map.cellCenter(GridCell{0, 0}), Vec2(10.25f, -1.75f));
  EXPECT_EQ(map.cellCenter(GridCell{3, 1}), Vec2(11.75f, -1.25f));
  EXPECT_EQ(map.corner(4, 2), Vec2(12.0f, -1.0f));
  EXPECT_EQ(map.cellAt(Vec2(10.25f, -1.75f)), (GridCell{0, 0}));
  EXPECT_EQ(map.cellAt(Vec2(10.5f, -1.5f)), (GridCell{1, 1}));  // A shared corner: larger x and y.
  EXPECT_EQ(map.cellAt(Vec2(11.99f, -1.01f)), (GridCell{3, 1}));
  EXPECT_FALSE(map.cellAt(Vec2(12.0f, -1.5f)));
  EXPECT_FALSE(map.cellAt(Vec2(9.99f, -1.5f)));
  EXPECT_FALSE(map.cellAt(Vec2(NAN, 0.0f)));
  for (int y = 0; y < 2; ++y) {
    for (int x = 0; x < 4; ++x) EXPECT_EQ(map.cellAt(map.cellCenter(GridCell{x, y})), (GridCell{x, y}));
  }
  EXPECT_THROW(map.setPlacement(GridPlacement{0.0f, Vec2(0.0f, 0.0f)}), std::invalid_argument);
  EXPECT_THROW(map.setPlacement(GridPlacement{INFINITY, Vec2(0.0f, 0.0f)}), std::invalid_argument);
  EXPECT_THROW(map.setPlacement(GridPlacement{1.0f, Vec2(NAN, 0.0f)}), std::invalid_argument);
  EXPECT_THROW(map.setPassable(GridCell{4, 0}, false), std::out_of_range);
}

TEST(GridMap, OpenMapIsOneClockwiseBoundary) {
  const GridMap map = rowsMap({"....", "....", "...."});
  const Outlines walled = traceObstacleOutlines(map);
  ASSERT_EQ(walled.size(), 1u);
  ASSERT_EQ(walled[0].size(), 4u);  // Straight runs merged: one vertex per corner.
  EXPECT_FLOAT_EQ(signedArea(walled[0]), -12.0f);
  for (const Vec2 corner : {Vec2(0, 0), Vec2(4, 0), Vec2(4, 3), Vec2(0, 3)}) {
    EXPECT_NE(std::find(walled[0].begin(), walled[0].end(), corner), walled[0].end());
  }
  EXPECT_TRUE(traceObstacleOutlines(map, OutlineOptions{false}).empty());
  EXPECT_TRUE(traceObstacleOutlines(GridMap()).empty());
}

TEST(GridMap, SolidBlocksAreMergedCounterClockwise) {
  GridMap map = rowsMap({"......", ".@@@..", ".@@@..", ".@....", "......"});
  map.setPlacement(GridPlacement{2.0f, Vec2(-1.0f, 1.0f)});
  const Outlines outlines = traceObstacleOutlines(map, OutlineOptions{false});
  ASSERT_EQ(outlines.size(), 1u);
  EXPECT_EQ(outlines[0].size(), 6u);  // An L of 7 cells: 6 corners, however many cells.
  EXPECT_FLOAT_EQ(signedArea(outlines[0]), 7.0f * 4.0f);
  expectValidPolygons(outlines);
  EXPECT_EQ(wrongCells(map, outlines, false), 0);
  // With the wall: the boundary of the free cells too, clockwise round them.
  const Outlines walled = traceObstacleOutlines(map);
  ASSERT_EQ(walled.size(), 2u);
  EXPECT_LT(signedArea(walled[0]), 0.0f);
  EXPECT_EQ(wrongCells(map, walled, true), 0);
}

TEST(GridMap, HolesAndIslandsNest) {
  // A solid ring with a room inside it, and a post in the room.
  const GridMap map = rowsMap({".......", ".@@@@@.", ".@...@.", ".@.@.@.", ".@...@.", ".@@@@@.", "......."});
  const Outlines outlines = traceObstacleOutlines(map, OutlineOptions{false});
  ASSERT_EQ(outlines.size(), 3u);
  int clockwise = 0;
  for (const std::vector<Vec2>& polygon : outlines) {
    EXPECT_EQ(polygon.size(), 4u);
    clockwise += signedArea(polygon) < 0.0f ? 1 : 0;
  }
  EXPECT_EQ(clockwise, 1);  // The room's boundary encloses free cells.
  expectValidPolygons(outlines);
  EXPECT_EQ(wrongCells(map, outlines, false), 0);
}

TEST(GridMap, CornerTouchingCellsAreSplit) {
  // Two blocks touching at one corner, and a ring closed only through a corner: traced as one
  // loop it would touch itself there.
  for (const std::vector<std::string>& rows :
       {std::vector<std::string>{"....", ".@..", "..@.", "...."},
        std::vector<std::string>{"......", ".@@@..", ".@.@..", ".@@.@.", "....@.", "......"},
        std::vector<std::string>{"@.@.", ".@.@", "@.@.", ".@.@"}}) {
    const GridMap map = rowsMap(rows);
    for (const bool wall : {false, true}) {
      const Outlines outlines = traceObstacleOutlines(map, OutlineOptions{wall});
      expectValidPolygons(outlines);
      EXPECT_EQ(wrongCells(map, outlines, wall), 0) << rows[1] << " wall " << wall;
      // No vertex is shared by two outlines or twice by one.
      std::vector<std::pair<float, float>> vertices;
      for (const std::vector<Vec2>& polygon : outlines) {
        for (const Vec2 v : polygon) vertices.emplace_back(v.x, v.y);
      }
      std::sort(vertices.begin(), vertices.end());
      EXPECT_EQ(std::adjacent_find(vertices.begin(), vertices.end()), vertices.end());
    }
  }
  const GridMap diagonal = rowsMap({"....", ".@..", "..@.", "...."});
  const Outlines split = traceObstacleOutlines(diagonal, OutlineOptions{false});
  ASSERT_EQ(split.size(), 2u);  // Blocked cells join only through shared sides.
  EXPECT_THROW(traceObstacleOutlines(diagonal, OutlineOptions{false, 0.5}), std::invalid_argument);
}

TEST(GridMap, RandomMapsGiveValidOutlines) {
  std::mt19937 rng(7);
  for (int trial = 0; trial < 60; ++trial) {
    const int width = 1 + static_cast<int>(rng() % 24);
    const int height = 1 + static_cast<int>(rng() % 24);
    const double density = 0.1 + 0.1 * (trial % 8);
    GridMap map(width, height);
    std::uniform_real_distribution<double> unit(0.0, 1.0);
    for (int y = 0; y < height; ++y) {
      for (int x = 0; x < width; ++x) map.setPassable(GridCell{x, y}, unit(rng) >= density);
    }
    map.setPlacement(GridPlacement{0.75f, Vec2(-3.0f, 5.0f)});
    for (const bool wall : {false, true}) {
      const Outlines outlines = traceObstacleOutlines(map, OutlineOptions{wall});
      expectValidPolygons(outlines);
      EXPECT_EQ(wrongCells(map, outlines, wall), 0) << "trial " << trial << " wall " << wall;
    }
  }
}

TEST(GridMap, MovingAiMapsGiveValidOutlines) {
  const std::filesystem::path dir = std::filesystem::path(CROWD_SHARED_DATA_DIR) / "movingai";
  if (!std::filesystem::exists(dir / "arena.map")) GTEST_SKIP() << "no Moving AI data in " << dir;
  for (const char* name : {"arena", "Berlin_0_256", "den520d", "random512-25-0", "maze512-1-0"}) {
    const GridMap map = GridMap::loadMovingAi((dir / (std::string(name) + ".map")).string());
    const Outlines outlines = traceObstacleOutlines(map);
    expectValidPolygons(outlines);
    EXPECT_EQ(wrongCells(map, outlines, true), 0) << name;
    std::size_t blocked = map.cellCount() - map.passableCount();
    EXPECT_LT(outlines.size(), blocked / 2 + 2) << name << ": merged, not a square per cell";
  }
}

}  // namespace
}  // namespace crowd
