// A grid of passable and blocked cells placed in the world: read from a Moving AI .map file or
// from rows of text embedded in a scenario, and turned into ORCA obstacle polygons.
//
// Cell (x, y) is column x and row y of the text, as in the Moving AI files, and covers the world
// square [origin.x + x * cellSize, origin.x + (x + 1) * cellSize] x [origin.y + y * cellSize,
// origin.y + (y + 1) * cellSize]: world y grows with the row number, so a viewer with y up shows
// the text upside down (reverse the rows before fromRows to keep the picture upright).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include <crowd/errors.hpp>
#include <crowd/kernels/vec2.hpp>

namespace crowd {

namespace grid_limits {
/// Rows and columns of a grid map. At the limit a map holds 2^28 cells: 256 MiB of cells, and an
/// A* search over it another 16 bytes per cell.
inline constexpr int kMaxSide = 16384;
}  // namespace grid_limits

/// A map that cannot be read. what() is "SOURCE:LINE:COLUMN: REASON" (LINE and COLUMN 1-based;
/// COLUMN 0 when the problem is the line as a whole); the parts are kept for callers that
/// report places their own way (a scenario names its JSON path instead).
class GridMapError : public InputError {
 public:
  GridMapError(const std::string& source, int line, int column, const std::string& reason);
  int line() const { return line_; }
  int column() const { return column_; }
  const std::string& reason() const { return reason_; }

 private:
  int line_;
  int column_;
  std::string reason_;
};

/// A cell by column x and row y.
struct GridCell {
  int x = 0;
  int y = 0;
  friend bool operator==(GridCell a, GridCell b) = default;
};

/// Where a map lies in the world.
struct GridPlacement {
  float cellSize = 1.0f;    ///< World length of a cell side. [Limit: > 0, finite]
  Vec2 origin{0.0f, 0.0f};  ///< World position of the outer corner of cell (0, 0).
};

class GridMap {
 public:
  /// An empty 0 x 0 map.
  GridMap() = default;
  /// A map of `width` x `height` free cells. Throws std::invalid_argument beyond the limits.
  GridMap(int width, int height);

  /// Parses a Moving AI map ("type octile", "height H", "width W", "map", then H rows of W
  /// characters; LF or CRLF). `source` names the text in messages. Throws GridMapError.
  static GridMap parseMovingAi(std::string_view text, const std::string& source);
  /// Reads and parses a Moving AI .map file. Throws GridMapError (the file cannot be read too).
  static GridMap loadMovingAi(const std::string& path);
  /// A map from rows of text (the scenario form): every row as long as the first, characters as
  /// in a .map file. Messages give the row as LINE. Throws GridMapError.
  static GridMap fromRows(std::span<const std::string> rows, const std::string& source);

  /// Whether a map character stands for a passable cell ('.', 'G', 'S'); blocked are '@', 'O',
  /// 'T', 'W'. Any other character is not a map character.
  static bool passableChar(char c) { return c == '.' || c == 'G' || c == 'S'; }
  static bool mapChar(char c) { return passableChar(c) || c == '@' || c == 'O' || c == 'T' || c == 'W'; }

  int width() const { return width_; }
  int height() const { return height_; }
  std::size_t cellCount() const { return passable_.size(); }
  bool contains(GridCell c) const { return c.x >= 0 && c.y >= 0 && c.x < width_ && c.y < height_; }
  /// Cells are numbered row by row: index = y * width + x.
  std::size_t index(GridCell c) const {
    return static_cast<std::size_t>(c.y) * static_cast<std::size_t>(width_) + static_cast<std::size_t>(c.x);
  }
  GridCell cellOf(std::size_t index) const {
    return GridCell{static_cast<int>(index % static_cast<std::size_t>(width_)),
                    static_cast<int>(index / static_cast<std::size_t>(width_))};
  }
  /// False outside the map.
  bool passable(GridCell c) const { return contains(c) && passable_[index(c)] != 0; }
  bool passable(int x, int y) const { return passable(GridCell{x, y}); }
  /// Marks a cell free or blocked. Throws std::out_of_range outside the map.
  void setPassable(GridCell c, bool free);
  /// 1 for each free cell, 0 for each blocked one, by index.
  std::span<const std::uint8_t> cells() const { return passable_; }
  std::size_t passableCount() const;

  const GridPlacement& placement() const { return placement_; }
  /// Throws std::invalid_argument for a cell size that is not finite and > 0, or a non-finite
  /// origin.
  void setPlacement(const GridPlacement& placement);
  /// World position of a cell's centre.
  Vec2 cellCenter(GridCell c) const;
  /// World position of lattice corner (x, y) (corner (0, 0) is the origin).
  Vec2 corner(double x, double y) const;
  /// The cell a world point lies in; none outside the map. A point on a shared side belongs to
  /// the cell of larger x or y.
  std::optional<GridCell> cellAt(Vec2 world) const;

 private:
  int width_ = 0;
  int height_ = 0;
  std::vector<std::uint8_t> passable_;
  GridPlacement placement_{};
};

/// How blocked cells become obstacle polygons.
struct OutlineOptions {
  /// Treat everything outside the map as blocked, so that the map's edge is a wall: free cells
  /// are then enclosed by a clockwise boundary. When false, blocked cells at the edge are
  /// solids whose outline runs along the edge.
  bool wallAtMapEdge = true;
  /// Where two blocked cells touch only at a corner (the other two cells free), each outline
  /// wraps its own cell and its corner vertex is pulled this fraction of a cell into that cell,
  /// so that no polygon touches itself or another one there. The gap left is
  /// 2 * sqrt(2) * fraction cells wide: narrower than any agent that fits a cell, and paths
  /// without corner cutting never use it. Vertices are rounded to float once, so the pulled
  /// points stay apart while fraction * cellSize exceeds the float spacing at the map's
  /// coordinates (1/16 at 10^6, 1/1024 at 10^4). [Limit: > 0, < 0.5]
  double cornerSplit = 1.0 / 32.0;
};

/// The outlines of the blocked regions, as polygons for ObstacleSet::addPolygon, in world
/// coordinates. Each is traced along the sides between blocked and free cells with the blocked
/// side on its left, so a solid block is counter-clockwise and a boundary that encloses free
/// cells (the map's edge, a room inside a solid) is clockwise. Straight runs are merged: one
/// vertex per turn, so a rectangle of any size gives 4 vertices. Blocked cells count as one
/// region only through shared sides (see OutlineOptions::cornerSplit for corners). A point is
/// inside the solid exactly when (wallAtMapEdge ? 1 : 0) + the sum of the outlines' winding
/// numbers around it is 1.
std::vector<std::vector<Vec2>> traceObstacleOutlines(const GridMap& map, const OutlineOptions& options = {});

/// One problem of a Moving AI scenario (.scen) file.
struct MovingAiProblem {
  int bucket = 0;
  std::string mapName;  ///< As listed (a path or a bare file name).
  int mapWidth = 0;
  int mapHeight = 0;
  GridCell start;
  GridCell goal;
  double optimalLength = 0.0;  ///< As listed: 6 significant digits or 8 decimals.
  int line = 0;                ///< Line in the file, for messages.
};

/// Parses a .scen file: "version 1", then one problem a line as 9 tab-separated fields
/// (bucket, map, map width, map height, start x, start y, goal x, goal y, optimal length).
/// Blank lines are skipped. Throws GridMapError naming the line and column of a bad field.
std::vector<MovingAiProblem> parseMovingAiScenario(std::string_view text, const std::string& source);
/// Reads and parses a .scen file. Throws GridMapError.
std::vector<MovingAiProblem> loadMovingAiScenario(const std::string& path);

/// Whether a computed length matches a listed one: |computed - listed| <= max(1e-4, 1e-5 *
/// listed). The files round lengths of 100 or more to 6 significant digits, so a fixed 1e-4
/// would fail correct answers; any real difference between two path lengths on the grid is
/// at least 2 - sqrt(2).
inline bool matchesListedLength(double computed, double listed) {
  const double tolerance = listed * 1e-5 > 1e-4 ? listed * 1e-5 : 1e-4;
  return computed - listed <= tolerance && listed - computed <= tolerance;
}

}  // namespace crowd
