// Reading recorded pedestrian scenes (ETH/UCY's "frame pedestrian x y" lines): ids written as
// floats, rows in any order, the annotation lattice, and refusals that name the line.
#include <filesystem>
#include <string>

#include <gtest/gtest.h>

#include <crowd/recorded_scene.hpp>

namespace crowd {
namespace {

// Two pedestrians; 7 is missed once by the annotators (frames 20 and 40, no 30).
constexpr const char* kTwoWalkers =
    "# frame pedestrian x y\n"
    "0\t1.0\t0.0\t0.0\n"
    "10\t1.0\t0.5\t0.0\n"
    "\n"
    "20\t7.0\t3.0\t1.0   # a comment\n"
    "20\t1.0\t1.0\t0.0\n"
    "40\t7.0\t2.0\t1.0\n";

std::string errorOf(const std::string& text) {
  try {
    parseRecordedScene(text, "scene.txt");
  } catch (const RecordedSceneError& e) {
    return e.what();
  }
  return "no error";
}

TEST(RecordedScene, ReadsTracksOnTheAnnotationLattice) {
  const RecordedScene scene = parseRecordedScene(kTwoWalkers, "scene.txt");
  EXPECT_EQ(scene.rows, 5u);
  EXPECT_EQ(scene.firstFrame, 0);
  EXPECT_EQ(scene.frameGap, 10);  // 10 separates two consecutive annotations, 20 one.
  EXPECT_EQ(scene.instants, 5);
  EXPECT_EQ(scene.frameOf(4), 40);
  ASSERT_EQ(scene.tracks.size(), 2u);
  EXPECT_EQ(scene.tracks[0].pedestrian, 1);
  ASSERT_EQ(scene.tracks[0].points.size(), 3u);
  EXPECT_EQ(scene.tracks[0].points[2].instant, 2);
  EXPECT_EQ(scene.tracks[0].points[1].position.x, 0.5);
  EXPECT_EQ(scene.tracks[1].pedestrian, 7);
  ASSERT_EQ(scene.tracks[1].points.size(), 2u);
  EXPECT_EQ(scene.tracks[1].points[0].instant, 2);
  EXPECT_EQ(scene.tracks[1].points[1].instant, 4);
  EXPECT_EQ(scene.tracks[1].points[1].position.y, 1.0);
  EXPECT_EQ(scene.mostAtOnce(), 2);  // Instant 2 (frame 20).
}

TEST(RecordedScene, ReadsCommasAndAByteOrderMark) {
  const RecordedScene scene = parseRecordedScene(
      "\xEF\xBB\xBF"
      "0, 1, 2.5, 3\r\n10,1,3,3\r\n",
      "csv");
  ASSERT_EQ(scene.tracks.size(), 1u);
  ASSERT_EQ(scene.tracks[0].points.size(), 2u);
  EXPECT_EQ(scene.tracks[0].points[0].position, glm::dvec2(2.5, 3.0));
  EXPECT_EQ(scene.tracks[0].points[1].instant, 1);
}

TEST(RecordedScene, RowOrderDoesNotMatter) {
  const RecordedScene sorted = parseRecordedScene(kTwoWalkers, "a");
  const RecordedScene shuffled =
      parseRecordedScene("40 7 2 1\n20 1 1 0\n0 1 0 0\n20 7 3 1\n10 1 0.5 0\n", "b");
  ASSERT_EQ(shuffled.tracks.size(), sorted.tracks.size());
  for (std::size_t t = 0; t < sorted.tracks.size(); ++t) {
    ASSERT_EQ(shuffled.tracks[t].points.size(), sorted.tracks[t].points.size());
    for (std::size_t j = 0; j < sorted.tracks[t].points.size(); ++j) {
      EXPECT_EQ(shuffled.tracks[t].points[j].instant, sorted.tracks[t].points[j].instant);
      EXPECT_EQ(shuffled.tracks[t].points[j].position, sorted.tracks[t].points[j].position);
    }
  }
}

TEST(RecordedScene, RefusesBadLinesByNumber) {
  EXPECT_EQ(errorOf("0 1 0 0\n10 1 0\n"), "scene.txt:2: expected 4 columns (frame pedestrian x y), found 3");
  EXPECT_EQ(errorOf("0 1 0 0\n10 1 0 0 5\n"),
            "scene.txt:2: expected 4 columns (frame pedestrian x y), found 5");
  EXPECT_EQ(errorOf("0 1 zero 0\n"), "scene.txt:1: x 'zero' is not a number");
  EXPECT_EQ(errorOf("0 1 0 0\n\n10.5 1 0 0\n"),
            "scene.txt:3: frame '10.5' is not a whole number (up to 1e15)");
  EXPECT_EQ(errorOf("0 nan 0 0\n"), "scene.txt:1: pedestrian 'nan' is not a whole number (up to 1e15)");
  EXPECT_EQ(errorOf("0 1 inf 0\n"), "scene.txt:1: the position is not finite");
  EXPECT_EQ(errorOf("0 1 0 0\n0 1 1 1\n"),
            "scene.txt:2: pedestrian 1 is annotated twice in frame 0 (also line 1)");
  EXPECT_EQ(errorOf("0 1 0 0\n10 1 1 0\n20 1 2 0\n25 2 0 0\n"),
            "scene.txt:4: frame 25 is off the file's lattice: annotations are 10 frames apart from frame 0");
  EXPECT_EQ(errorOf("# nothing\n\n"), "scene.txt: no annotations (expected lines of: frame pedestrian x y)");
  EXPECT_EQ(errorOf("0 1 0 0\n1 1 1 0\n1e8 2 0 0\n"),
            "scene.txt: the annotations span 100000001 instants; at most 1000000 are read");
  EXPECT_EQ(errorOf("0 1 1e400 0\n"), "scene.txt:1: x '1e400' is out of range");
  EXPECT_EQ(errorOf("0 1 0 -1e999\n"), "scene.txt:1: y '-1e999' is out of range");
  EXPECT_EQ(errorOf("0,1,,0.5,2\n"), "scene.txt:1: expected 4 columns (frame pedestrian x y), found 5");
  EXPECT_EQ(errorOf("0,1,,0.5\n"), "scene.txt:1: x '' is not a number");
}

TEST(RecordedScene, ValuesTooSmallForADoubleReadAsTheNearestOne) {
  // Underflow is rounding, as in any reader of decimal numbers: only overflow is refused.
  const RecordedScene scene = parseRecordedScene("0 1 1e-400 -1e-310\n10 1 1 0\n", "scene.txt");
  ASSERT_EQ(scene.tracks.size(), 1u);
  EXPECT_EQ(scene.tracks[0].points[0].position.x, 0.0);
  EXPECT_LT(scene.tracks[0].points[0].position.y, 0.0);
  EXPECT_GT(scene.tracks[0].points[0].position.y, -1e-300);
}

TEST(RecordedScene, LoadRefusesWhatIsNotText) {
  try {
    loadRecordedScene("/dev/zero");  // Never ends: refused at its first bytes.
    FAIL() << "/dev/zero was read";
  } catch (const RecordedSceneError& e) {
    EXPECT_EQ(std::string(e.what()), "/dev/zero: byte 0 is a NUL: not a text file");
  }
}

TEST(RecordedScene, LoadSaysWhyAFileCannotBeRead) {
  const std::string missing =
      (std::filesystem::temp_directory_path() / "crowd-no-such-recording.txt").string();
  EXPECT_THROW(loadRecordedScene(missing), RecordedSceneError);
  try {
    loadRecordedScene(std::filesystem::temp_directory_path().string());
    FAIL() << "a folder was read";
  } catch (const RecordedSceneError& e) {
    EXPECT_NE(std::string(e.what()).find("is a folder"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace crowd
