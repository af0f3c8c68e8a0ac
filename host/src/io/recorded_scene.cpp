#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>

#include <crowd/recorded_scene.hpp>

#include "params/file_text.hpp"

namespace crowd {
namespace {

// Ids this far from zero are no longer exact in the double they are read as.
constexpr double kLargestId = 1e15;
// A recording longer than this (111 hours at ETH/UCY's 0.4 s) is refused rather than stepped
// through, as is a file larger than kMostBytes (the datasets' files are a few hundred KB).
constexpr std::int64_t kMostInstants = 1'000'000;
constexpr std::size_t kMostBytes = std::size_t{256} << 20;

struct Row {
  std::int64_t frame;
  std::int64_t pedestrian;
  glm::dvec2 position;
  int line;
};

bool blank(char c) {
  return c == ' ' || c == '\t' || c == '\r';
}

std::string_view trimmed(std::string_view text) {
  while (!text.empty() && blank(text.front())) text.remove_prefix(1);
  while (!text.empty() && blank(text.back())) text.remove_suffix(1);
  return text;
}

// The line's columns: separated by commas where it has any (an empty one is kept, to be
// refused), else by blanks.
std::vector<std::string_view> fields(std::string_view line) {
  std::vector<std::string_view> out;
  if (trimmed(line).empty()) return out;
  if (line.find(',') != std::string_view::npos) {
    for (std::size_t start = 0;;) {
      const std::size_t comma = line.find(',', start);
      out.push_back(trimmed(line.substr(start, comma == std::string_view::npos ? comma : comma - start)));
      if (comma == std::string_view::npos) return out;
      start = comma + 1;
    }
  }
  std::size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && blank(line[i])) ++i;
    const std::size_t start = i;
    while (i < line.size() && !blank(line[i])) ++i;
    if (i > start) out.push_back(line.substr(start, i - start));
  }
  return out;
}

double number(std::string_view text, const char* what, const std::string& source, int line) {
  double value = 0.0;
  const char* end = text.data() + text.size();
  const auto [stop, error] = std::from_chars(text.data(), end, value);
  if (error == std::errc::result_out_of_range && stop == end) {
    // from_chars reports underflow and overflow alike; a value too small for a double is read as
    // the nearest one (zero or subnormal), as it would be written, and only overflow is refused.
    const double nearest = std::strtod(std::string(text).c_str(), nullptr);
    if (std::isfinite(nearest)) return nearest;
    throw RecordedSceneError(source, line,
                             std::string(what) + " " + quotedFileText(text) + " is out of range");
  }
  if (error != std::errc() || stop != end) {
    throw RecordedSceneError(source, line,
                             std::string(what) + " " + quotedFileText(text) + " is not a number");
  }
  return value;
}

std::int64_t id(std::string_view text, const char* what, const std::string& source, int line) {
  const double value = number(text, what, source, line);
  if (!std::isfinite(value) || std::fabs(value) > kLargestId || std::fabs(value - std::round(value)) > 1e-6) {
    throw RecordedSceneError(
        source, line, std::string(what) + " " + quotedFileText(text) + " is not a whole number (up to 1e15)");
  }
  return static_cast<std::int64_t>(std::llround(value));
}

Row parseRow(std::string_view text, const std::string& source, int line) {
  const std::vector<std::string_view> f = fields(text);
  if (f.size() != 4) {
    throw RecordedSceneError(source, line,
                             "expected 4 columns (frame pedestrian x y), found " + std::to_string(f.size()));
  }
  Row row{id(f[0], "frame", source, line),
          id(f[1], "pedestrian", source, line),
          {number(f[2], "x", source, line), number(f[3], "y", source, line)},
          line};
  if (!std::isfinite(row.position.x) || !std::isfinite(row.position.y)) {
    throw RecordedSceneError(source, line, "the position is not finite");
  }
  return row;
}

// The gap that most often separates a pedestrian's consecutive frames (the smallest on a tie);
// with no pedestrian seen twice, the smallest gap between frames, else 1.
std::int64_t frameGapOf(const std::vector<Row>& rows) {
  std::map<std::int64_t, std::size_t> gaps;
  for (std::size_t i = 1; i < rows.size(); ++i) {
    if (rows[i].pedestrian == rows[i - 1].pedestrian) ++gaps[rows[i].frame - rows[i - 1].frame];
  }
  if (!gaps.empty()) {
    return std::max_element(gaps.begin(), gaps.end(),
                            [](const auto& a, const auto& b) { return a.second < b.second; })
        ->first;
  }
  std::int64_t gap = 0;
  std::vector<std::int64_t> frames;
  for (const Row& r : rows) frames.push_back(r.frame);
  std::sort(frames.begin(), frames.end());
  for (std::size_t i = 1; i < frames.size(); ++i) {
    if (frames[i] > frames[i - 1] && (gap == 0 || frames[i] - frames[i - 1] < gap))
      gap = frames[i] - frames[i - 1];
  }
  return gap > 0 ? gap : 1;
}

}  // namespace

namespace {

std::string placed(const std::string& source, int line, const std::string& reason) {
  std::string text = source;
  if (line > 0) text += ':' + std::to_string(line);
  text += ": ";
  text += reason;
  return text;
}

}  // namespace

RecordedSceneError::RecordedSceneError(const std::string& source, int line, const std::string& reason)
    : InputError(placed(source, line, reason)), line_(line) {}

int RecordedScene::mostAtOnce() const {
  std::vector<int> present(static_cast<std::size_t>(instants), 0);
  for (const RecordedTrack& t : tracks) {
    for (const RecordedPoint& p : t.points) ++present[static_cast<std::size_t>(p.instant)];
  }
  return present.empty() ? 0 : *std::max_element(present.begin(), present.end());
}

RecordedScene parseRecordedScene(std::string_view text, const std::string& source) {
  if (text.substr(0, 3) == "\xEF\xBB\xBF") text.remove_prefix(3);  // A UTF-8 byte order mark.
  std::vector<Row> rows;
  int line = 0;
  while (!text.empty()) {
    ++line;
    const std::size_t end = text.find('\n');
    std::string_view content = text.substr(0, end);
    text = end == std::string_view::npos ? std::string_view() : text.substr(end + 1);
    content = content.substr(0, content.find('#'));
    if (fields(content).empty()) continue;
    rows.push_back(parseRow(content, source, line));
  }
  if (rows.empty())
    throw RecordedSceneError(source, 0, "no annotations (expected lines of: frame pedestrian x y)");
  std::stable_sort(rows.begin(), rows.end(), [](const Row& a, const Row& b) {
    return a.pedestrian != b.pedestrian ? a.pedestrian < b.pedestrian : a.frame < b.frame;
  });
  for (std::size_t i = 1; i < rows.size(); ++i) {
    if (rows[i].pedestrian == rows[i - 1].pedestrian && rows[i].frame == rows[i - 1].frame) {
      throw RecordedSceneError(source, rows[i].line,
                               "pedestrian " + std::to_string(rows[i].pedestrian) +
                                   " is annotated twice in frame " + std::to_string(rows[i].frame) +
                                   " (also line " + std::to_string(rows[i - 1].line) + ")");
    }
  }
  RecordedScene scene;
  scene.source = source;
  scene.rows = rows.size();
  scene.frameGap = frameGapOf(rows);
  scene.firstFrame = std::min_element(rows.begin(), rows.end(), [](const Row& a, const Row& b) {
                       return a.frame < b.frame;
                     })->frame;
  std::int64_t lastInstant = 0;
  for (const Row& r : rows) {
    if ((r.frame - scene.firstFrame) % scene.frameGap != 0) {
      throw RecordedSceneError(source, r.line,
                               "frame " + std::to_string(r.frame) +
                                   " is off the file's lattice: annotations are " +
                                   std::to_string(scene.frameGap) + " frames apart from frame " +
                                   std::to_string(scene.firstFrame));
    }
    lastInstant = std::max(lastInstant, (r.frame - scene.firstFrame) / scene.frameGap);
  }
  if (lastInstant >= kMostInstants) {
    throw RecordedSceneError(source, 0,
                             "the annotations span " + std::to_string(lastInstant + 1) +
                                 " instants; at most " + std::to_string(kMostInstants) + " are read");
  }
  scene.instants = static_cast<int>(lastInstant) + 1;
  for (const Row& r : rows) {
    if (scene.tracks.empty() || scene.tracks.back().pedestrian != r.pedestrian) {
      scene.tracks.push_back(RecordedTrack{r.pedestrian, {}});
    }
    scene.tracks.back().points.push_back(
        RecordedPoint{static_cast<int>((r.frame - scene.firstFrame) / scene.frameGap), r.position});
  }
  return scene;
}

RecordedScene loadRecordedScene(const std::string& path) {
  std::error_code error;
  if (std::filesystem::is_directory(path, error))
    throw RecordedSceneError(path, 0, "is a folder, not a file");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw RecordedSceneError(path, 0, "cannot open the file");
  // Read in pieces, so that a device that never ends (/dev/zero) is refused at its first bytes.
  std::string text;
  char piece[1 << 16];
  while (in.read(piece, sizeof piece) || in.gcount() > 0) {
    const std::string_view got(piece, static_cast<std::size_t>(in.gcount()));
    if (const std::size_t nul = got.find('\0'); nul != std::string_view::npos) {
      throw RecordedSceneError(path, 0,
                               "byte " + std::to_string(text.size() + nul) + " is a NUL: not a text file");
    }
    if (text.size() + got.size() > kMostBytes) {
      throw RecordedSceneError(path, 0, "larger than " + std::to_string(kMostBytes >> 20) + " MiB");
    }
    text.append(got);
  }
  if (in.bad()) throw RecordedSceneError(path, 0, "cannot read the file");
  return parseRecordedScene(text, path);
}

}  // namespace crowd
