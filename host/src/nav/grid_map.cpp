#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>

#include <crowd/grid_map.hpp>

#include "nav/bounded_text.hpp"
#include "params/file_text.hpp"

namespace crowd {
namespace {

std::string placeText(const std::string& source, int line, int column) {
  std::string text = source;
  if (line > 0) {
    // Appended piece by piece: GCC 12 warns falsely (-Wrestrict) on ":" + std::to_string(n).
    text += ':';
    text += std::to_string(line);
    if (column > 0) {
      text += ':';
      text += std::to_string(column);
    }
  }
  return text;
}

// Reads a Moving AI map line by line, keeping the line number for messages.
class MapLines {
 public:
  MapLines(std::string_view text, const std::string& source) : text_(text), source_(source) {}

  // The next line without its LF or CRLF; false at the end of the text.
  bool next(std::string_view& line) {
    if (pos_ >= text_.size()) return false;
    std::size_t end = text_.find('\n', pos_);
    if (end == std::string_view::npos) end = text_.size();
    line = text_.substr(pos_, end - pos_);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    pos_ = end + 1;
    ++number_;
    return true;
  }
  int number() const { return number_; }

  [[noreturn]] void fail(int column, const std::string& reason) const {
    throw GridMapError(source_, number_, column, reason);
  }

 private:
  std::string_view text_;
  const std::string& source_;
  std::size_t pos_ = 0;
  int number_ = 0;
};

// Splits "key value" at the first run of spaces or tabs; the column (1-based) of the value.
bool splitHeader(std::string_view line, std::string_view& key, std::string_view& value, int& valueColumn) {
  const std::size_t gap = line.find_first_of(" \t");
  if (gap == std::string_view::npos) return false;
  const std::size_t start = line.find_first_not_of(" \t", gap);
  if (start == std::string_view::npos) return false;
  key = line.substr(0, gap);
  value = line.substr(start);
  while (!value.empty() && (value.back() == ' ' || value.back() == '\t')) value.remove_suffix(1);
  valueColumn = static_cast<int>(start) + 1;
  return true;
}

// A side length in decimal digits, within 1 .. kMaxSide. Fails with the limit when over it.
int readSide(const MapLines& lines, std::string_view key, std::string_view value, int column) {
  const std::string name(key);
  // The offending character by describeByte: a NUL or control byte copied into the message
  // would cut it short or garble it.
  if (const std::size_t bad = value.find_first_not_of("0123456789"); bad != std::string_view::npos) {
    lines.fail(column + static_cast<int>(bad), name + " must be a whole number in decimal digits; " +
                                                   describeByte(value[bad]) + " is not a digit");
  }
  if (value.empty() || value.size() > 12) {
    lines.fail(column, name + " must be a whole number in decimal digits, got '" + std::string(value) + "'");
  }
  const long long side = std::stoll(std::string(value));
  if (side < 1) lines.fail(column, name + " must be at least 1");
  if (side > grid_limits::kMaxSide) {
    lines.fail(column, name + " " + std::string(value) + " is over the map size limit of " +
                           std::to_string(grid_limits::kMaxSide) + " cells");
  }
  return static_cast<int>(side);
}

// Checks one row of map characters; the column of the first problem, or 0.
int checkRow(std::string_view row, int width, std::string& reason) {
  for (std::size_t i = 0; i < row.size() && i < static_cast<std::size_t>(width); ++i) {
    if (!GridMap::mapChar(row[i])) {
      reason = describeByte(row[i]) + " is not a map character (passable . G S, blocked @ O T W)";
      return static_cast<int>(i) + 1;
    }
  }
  if (row.size() != static_cast<std::size_t>(width)) {
    reason =
        "the row has " + std::to_string(row.size()) + " cells, the map is " + std::to_string(width) + " wide";
    return static_cast<int>(std::min(row.size(), static_cast<std::size_t>(width))) + 1;
  }
  return 0;
}

}  // namespace

GridMapError::GridMapError(const std::string& source, int line, int column, const std::string& reason)
    : InputError(placeText(source, line, column) + ": " + reason),
      line_(line),
      column_(column),
      reason_(reason) {}

GridMap::GridMap(int width, int height) {
  if (width < 0 || height < 0 || width > grid_limits::kMaxSide || height > grid_limits::kMaxSide) {
    throw std::invalid_argument("a grid map is 0 to " + std::to_string(grid_limits::kMaxSide) +
                                " cells on a side, got " + std::to_string(width) + " x " +
                                std::to_string(height));
  }
  width_ = width;
  height_ = height;
  passable_.assign(static_cast<std::size_t>(width) * static_cast<std::size_t>(height), 1);
}

GridMap GridMap::parseMovingAi(std::string_view text, const std::string& source) {
  MapLines lines(text, source);
  std::string_view line;
  int width = 0;
  int height = 0;
  bool sawType = false;
  // The header: "type", "height" and "width", each once, in any order, then "map".
  while (true) {
    if (!lines.next(line)) {
      throw GridMapError(source, lines.number(), 0, "the header ends before the 'map' line");
    }
    if (line == "map") break;
    std::string_view key;
    std::string_view value;
    int valueColumn = 0;
    if (!splitHeader(line, key, value, valueColumn)) {
      lines.fail(1, "expected 'type octile', 'height H', 'width W' or 'map', got " + quotedFileText(line));
    }
    if (key == "type") {
      if (sawType) lines.fail(1, "a second 'type' line");
      if (value != "octile")
        lines.fail(valueColumn, "map type must be 'octile', got " + quotedFileText(value));
      sawType = true;
    } else if (key == "height" || key == "width") {
      int& side = key == "height" ? height : width;
      if (side != 0) lines.fail(1, "a second '" + std::string(key) + "' line");
      side = readSide(lines, key, value, valueColumn);
    } else {
      lines.fail(1, "unknown header line " + quotedFileText(key) + " (expected type, height, width or map)");
    }
  }
  if (!sawType || width == 0 || height == 0) {
    lines.fail(0, std::string("the header lacks '") +
                      (!sawType     ? "type"
                       : width == 0 ? "width"
                                    : "height") +
                      "' before 'map'");
  }

  // The rows are checked before the map's cells are allocated, then read again to fill them: a
  // header claiming 16,384 x 16,384 cells over a few bytes of rows fails without 256 MiB.
  const MapLines firstRow = lines;
  for (int y = 0; y < height; ++y) {
    if (!lines.next(line)) {
      throw GridMapError(
          source, lines.number() + 1, 0,
          "the map ends after " + std::to_string(y) + " of " + std::to_string(height) + " rows");
    }
    std::string reason;
    if (const int column = checkRow(line, width, reason); column != 0) lines.fail(column, reason);
  }
  GridMap map(width, height);
  MapLines rows = firstRow;
  for (int y = 0; y < height; ++y) {
    rows.next(line);
    std::uint8_t* row = map.passable_.data() + static_cast<std::size_t>(y) * static_cast<std::size_t>(width);
    for (int x = 0; x < width; ++x) row[x] = passableChar(line[static_cast<std::size_t>(x)]) ? 1 : 0;
  }
  // Blank lines may follow the rows (a final newline, an editor's extra one); nothing else.
  while (lines.next(line)) {
    if (line.find_first_not_of(" \t") != std::string_view::npos) {
      lines.fail(1, "text after the last of the " + std::to_string(height) + " rows");
    }
  }
  return map;
}

GridMap GridMap::loadMovingAi(const std::string& path) {
  namespace fs = std::filesystem;
  // The largest map within the limit, with CRLF rows and a generous header; anything larger is
  // refused: a file by its size, before reading it, a pipe or device as it comes in.
  const std::uintmax_t largest =
      static_cast<std::uintmax_t>(grid_limits::kMaxSide) * (grid_limits::kMaxSide + 2) + 4096;
  const std::string limit = "a map within the size limit of " + std::to_string(grid_limits::kMaxSide) +
                            " x " + std::to_string(grid_limits::kMaxSide) + " cells";
  std::error_code error;
  if (fs::is_regular_file(path, error)) {
    const std::uintmax_t size = fs::file_size(path, error);
    if (error) throw GridMapError(path, 0, 0, "cannot read the map: " + error.message());
    if (size > largest) {
      throw GridMapError(path, 0, 0,
                         "the file is " + std::to_string(size) + " bytes, more than any " + limit);
    }
  }
  const nav_io::TextBounds bounds{largest, static_cast<std::size_t>(grid_limits::kMaxSide) + 64, "map",
                                  limit.c_str()};
  return parseMovingAi(nav_io::readBoundedText(path, bounds), path);
}

GridMap GridMap::fromRows(std::span<const std::string> rows, const std::string& source) {
  if (rows.empty()) throw GridMapError(source, 0, 0, "a map needs at least one row");
  if (rows.size() > static_cast<std::size_t>(grid_limits::kMaxSide)) {
    throw GridMapError(source, 0, 0,
                       std::to_string(rows.size()) + " rows is over the map size limit of " +
                           std::to_string(grid_limits::kMaxSide) + " cells");
  }
  const std::size_t firstWidth = rows[0].size();
  if (firstWidth == 0) throw GridMapError(source, 1, 0, "the first row is empty");
  if (firstWidth > static_cast<std::size_t>(grid_limits::kMaxSide)) {
    throw GridMapError(source, 1, 0,
                       "a row of " + std::to_string(firstWidth) + " cells is over the map size limit of " +
                           std::to_string(grid_limits::kMaxSide) + " cells");
  }
  const int width = static_cast<int>(firstWidth);
  GridMap map(width, static_cast<int>(rows.size()));
  for (std::size_t y = 0; y < rows.size(); ++y) {
    std::string reason;
    if (const int column = checkRow(rows[y], width, reason); column != 0) {
      throw GridMapError(source, static_cast<int>(y) + 1, column, reason);
    }
    for (int x = 0; x < width; ++x) {
      map.passable_[y * firstWidth + static_cast<std::size_t>(x)] =
          passableChar(rows[y][static_cast<std::size_t>(x)]) ? 1 : 0;
    }
  }
  return map;
}

void GridMap::setPassable(GridCell c, bool free) {
  if (!contains(c)) {
    throw std::out_of_range("cell (" + std::to_string(c.x) + ", " + std::to_string(c.y) +
                            ") is outside the " + std::to_string(width_) + " x " + std::to_string(height_) +
                            " map");
  }
  passable_[index(c)] = free ? 1 : 0;
}

std::size_t GridMap::passableCount() const {
  std::size_t count = 0;
  for (const std::uint8_t cell : passable_) count += cell;
  return count;
}

void GridMap::setPlacement(const GridPlacement& placement) {
  if (!std::isfinite(placement.cellSize) || !(placement.cellSize > 0.0f)) {
    throw std::invalid_argument("the cell size must be finite and > 0");
  }
  if (!isFinite(placement.origin)) throw std::invalid_argument("the map origin must be a finite point");
  placement_ = placement;
}

Vec2 GridMap::corner(double x, double y) const {
  // In double, then rounded once: a vertex lands on the float nearest its true place.
  const double size = placement_.cellSize;
  return Vec2(static_cast<float>(placement_.origin.x + x * size),
              static_cast<float>(placement_.origin.y + y * size));
}

Vec2 GridMap::cellCenter(GridCell c) const {
  return corner(c.x + 0.5, c.y + 0.5);
}

std::optional<GridCell> GridMap::cellAt(Vec2 world) const {
  const double fx = std::floor((static_cast<double>(world.x) - placement_.origin.x) / placement_.cellSize);
  const double fy = std::floor((static_cast<double>(world.y) - placement_.origin.y) / placement_.cellSize);
  if (!(fx >= 0.0 && fy >= 0.0 && fx < width_ && fy < height_)) return std::nullopt;  // NaN too.
  return GridCell{static_cast<int>(fx), static_cast<int>(fy)};
}

// --- Moving AI scenarios ----------------------------------------------------------------------

namespace {

// One tab-separated field of a .scen line and the column it starts at.
struct ScenField {
  std::string_view text;
  int column;
};

std::vector<ScenField> splitScenLine(std::string_view line) {
  std::vector<ScenField> fields;
  std::size_t start = 0;
  while (true) {
    const std::size_t tab = line.find('\t', start);
    fields.push_back(ScenField{line.substr(start, tab == std::string_view::npos ? tab : tab - start),
                               static_cast<int>(start) + 1});
    if (tab == std::string_view::npos) break;
    start = tab + 1;
  }
  return fields;
}

int readScenInteger(const MapLines& lines, const ScenField& field, const char* what) {
  int value = 0;
  const char* end = field.text.data() + field.text.size();
  const auto [ptr, ec] = std::from_chars(field.text.data(), end, value);
  if (field.text.empty() || ec != std::errc() || ptr != end || value < 0) {
    lines.fail(field.column, std::string(what) + " must be a whole number >= 0 that fits an int, got '" +
                                 std::string(field.text) + "'");
  }
  return value;
}

}  // namespace

std::vector<MovingAiProblem> parseMovingAiScenario(std::string_view text, const std::string& source) {
  MapLines lines(text, source);
  std::string_view line;
  if (!lines.next(line) || line.rfind("version", 0) != 0) {
    throw GridMapError(source, 1, 1, "a scenario file starts with a 'version' line");
  }
  std::vector<MovingAiProblem> problems;
  while (lines.next(line)) {
    if (line.find_first_not_of(" \t") == std::string_view::npos) continue;
    const std::vector<ScenField> fields = splitScenLine(line);
    if (fields.size() != 9) {
      lines.fail(0,
                 "expected 9 tab-separated fields (bucket, map, width, height, start x, start y, goal x, "
                 "goal y, optimal length), got " +
                     std::to_string(fields.size()));
    }
    MovingAiProblem p;
    p.line = lines.number();
    p.bucket = readScenInteger(lines, fields[0], "the bucket");
    p.mapName = std::string(fields[1].text);
    p.mapWidth = readScenInteger(lines, fields[2], "the map width");
    p.mapHeight = readScenInteger(lines, fields[3], "the map height");
    p.start =
        GridCell{readScenInteger(lines, fields[4], "start x"), readScenInteger(lines, fields[5], "start y")};
    p.goal =
        GridCell{readScenInteger(lines, fields[6], "goal x"), readScenInteger(lines, fields[7], "goal y")};
    const ScenField& length = fields[8];
    const char* end = length.text.data() + length.text.size();
    const auto [ptr, ec] = std::from_chars(length.text.data(), end, p.optimalLength);
    if (length.text.empty() || ec != std::errc() || ptr != end || !std::isfinite(p.optimalLength) ||
        p.optimalLength < 0.0) {
      lines.fail(length.column,
                 "the optimal length must be a finite number >= 0, got '" + std::string(length.text) + "'");
    }
    problems.push_back(std::move(p));
  }
  return problems;
}

std::vector<MovingAiProblem> loadMovingAiScenario(const std::string& path) {
  // About 4 million problems of the usual 60-byte lines (benchmark sets hold thousands), and a
  // line far longer than 9 fields with a map path need.
  const nav_io::TextBounds bounds{std::uint64_t{256} << 20, 4096, "scenario",
                                  "a .scen file of problems, one short line each"};
  return parseMovingAiScenario(nav_io::readBoundedText(path, bounds), path);
}

// --- outlines ---------------------------------------------------------------------------------

namespace {

// Walks the sides between blocked and free cells. Lattice corner (x, y) is the lower-left
// corner of cell (x, y); a step runs along one cell side. Every side is walked once, with the
// blocked cell on the left, so each corner has as many sides leaving as arriving: one of each,
// or two of each at a saddle (blocked cells touching only diagonally).
class OutlineTracer {
 public:
  OutlineTracer(const GridMap& map, const OutlineOptions& options)
      : map_(map), options_(options), width_(map.width()), height_(map.height()) {}

  std::vector<std::vector<Vec2>> trace() {
    std::vector<std::vector<Vec2>> outlines;
    // Every closed rectilinear loop has a horizontal side, so scanning the horizontal sides
    // finds every loop; only they need a visited mark.
    walkedSide_.assign(static_cast<std::size_t>(width_) * static_cast<std::size_t>(height_ + 1), false);
    for (int y = 0; y <= height_; ++y) {
      for (int x = 0; x < width_; ++x) {
        const bool above = blocked(x, y);
        if (above == blocked(x, y - 1) || walkedSide_[sideIndex(x, y)]) continue;
        // Blocked above: walk towards +x from (x, y); blocked below: towards -x from (x + 1, y).
        outlines.push_back(above ? traceLoop(x, y, 1, 0) : traceLoop(x + 1, y, -1, 0));
      }
    }
    return outlines;
  }

 private:
  bool blocked(int x, int y) const {
    if (x < 0 || y < 0 || x >= width_ || y >= height_) return options_.wallAtMapEdge;
    return !map_.passable(x, y);
  }
  std::size_t sideIndex(int x, int y) const {
    return static_cast<std::size_t>(y) * static_cast<std::size_t>(width_) + static_cast<std::size_t>(x);
  }

  // Whether a side leaves corner (vx, vy) in direction (dx, dy) with a blocked cell on its left
  // and a free one on its right.
  bool leaves(int vx, int vy, int dx, int dy) const {
    if (dx == 1) return blocked(vx, vy) && !blocked(vx, vy - 1);
    if (dx == -1) return blocked(vx - 1, vy - 1) && !blocked(vx - 1, vy);
    if (dy == 1) return blocked(vx - 1, vy) && !blocked(vx, vy);
    return blocked(vx, vy - 1) && !blocked(vx - 1, vy - 1);
  }

  std::vector<Vec2> traceLoop(const int startX, const int startY, const int startDx, const int startDy) {
    std::vector<Vec2> vertices;
    int vx = startX, vy = startY, dx = startDx, dy = startDy;
    do {
      if (dy == 0) walkedSide_[sideIndex(dx == 1 ? vx : vx - 1, vy)] = true;
      vx += dx;
      vy += dy;
      // Left first: at a saddle the loop then wraps the blocked cell it is following, so blocked
      // regions join only through shared sides. Elsewhere exactly one way leaves.
      int ndx = -dy, ndy = dx;
      if (!leaves(vx, vy, ndx, ndy)) {
        ndx = dx;
        ndy = dy;
        if (!leaves(vx, vy, ndx, ndy)) {
          ndx = dy;
          ndy = -dx;
        }
      }
      if (ndx != dx || ndy != dy) {
        // A turn makes a vertex. At a saddle (both diagonal pairs differ) the corner belongs to
        // two loops, or twice to one, so each pass moves its vertex into the cell it wraps,
        // along new minus old direction: no outline touches another or itself there.
        const bool lowerLeft = blocked(vx - 1, vy - 1);
        const bool saddle = lowerLeft == blocked(vx, vy) && lowerLeft != blocked(vx, vy - 1) &&
                            blocked(vx, vy - 1) == blocked(vx - 1, vy);
        const double pull = saddle ? options_.cornerSplit : 0.0;
        vertices.push_back(map_.corner(vx + pull * (ndx - dx), vy + pull * (ndy - dy)));
      }
      dx = ndx;
      dy = ndy;
    } while (vx != startX || vy != startY || dx != startDx || dy != startDy);
    return vertices;
  }

  const GridMap& map_;
  OutlineOptions options_;
  int width_;
  int height_;
  std::vector<bool> walkedSide_;
};

}  // namespace

std::vector<std::vector<Vec2>> traceObstacleOutlines(const GridMap& map, const OutlineOptions& options) {
  if (!(options.cornerSplit > 0.0 && options.cornerSplit < 0.5)) {
    throw std::invalid_argument("cornerSplit must lie strictly between 0 and 0.5 of a cell");
  }
  if (map.width() == 0 || map.height() == 0) return {};
  return OutlineTracer(map, options).trace();
}

}  // namespace crowd
