// Recorded pedestrian scenes: real people's trajectories, as the ETH and UCY datasets give them
// (the files trajectory-prediction work shares: "frame pedestrian x y" a line, positions in
// metres on the ground plane, one annotation every few video frames). They are what simulated
// crowds are measured against (realism.hpp).
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include <glm/vec2.hpp>

#include <crowd/errors.hpp>

namespace crowd {

/// A recording that cannot be read: names the source and line ("zara.txt:12: ...").
class RecordedSceneError : public InputError {
 public:
  RecordedSceneError(const std::string& source, int line, const std::string& reason);
  int line() const { return line_; }

 private:
  int line_;
};

/// One annotation of a pedestrian.
struct RecordedPoint {
  int instant = 0;  ///< Which annotation instant: (frame - firstFrame) / frameGap.
  glm::dvec2 position{0.0, 0.0};
};

/// One pedestrian's annotations, in time order (instants strictly increasing; gaps where the
/// annotators missed them).
struct RecordedTrack {
  std::int64_t pedestrian = 0;  ///< The file's id.
  std::vector<RecordedPoint> points;
};

/// A whole recording. Annotation instants are `frameGap` frame ids apart; every frame id of the
/// file lies on that lattice.
struct RecordedScene {
  std::string source;                 ///< File name, for messages and reports.
  std::int64_t firstFrame = 0;        ///< The smallest frame id.
  std::int64_t frameGap = 1;          ///< Frame ids between consecutive annotations of a pedestrian.
  int instants = 0;                   ///< Annotation instants from the first frame to the last, inclusive.
  std::size_t rows = 0;               ///< Annotations read.
  std::vector<RecordedTrack> tracks;  ///< By pedestrian id, ascending.

  std::int64_t frameOf(int instant) const { return firstFrame + frameGap * instant; }
  /// The most pedestrians annotated at one instant.
  int mostAtOnce() const;
};

/// Reads "frame pedestrian x y" lines (separated by blanks, or by commas where a line has any; ids
/// may be written as floats; "#" starts a comment; blank lines and a UTF-8 byte order mark are
/// skipped; rows in any order). The frame gap is the one that
/// most often separates consecutive annotations of a pedestrian. Throws RecordedSceneError, naming
/// the line, for a line that is not four numbers, a fractional or out-of-range id, a non-finite
/// coordinate, a pedestrian annotated twice in one frame, a frame off the gap's lattice, or a
/// recording with no annotations.
RecordedScene parseRecordedScene(std::string_view text, const std::string& source);

/// parseRecordedScene of a file; throws RecordedSceneError when it cannot be read, holds a NUL
/// byte (not text) or is larger than 256 MiB.
RecordedScene loadRecordedScene(const std::string& path);

}  // namespace crowd
