// Trajectory files in the field's formats (crowd/trajectory.hpp): the PeTrack text form and
// JuPedSim's SQLite database, read back the way PedPy reads them (its loaders' own header rules
// and SQL queries), and compared with the positions the simulator held at each kept step.
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include <crowd/simulator.hpp>
#include <crowd/simulator3.hpp>
#include <crowd/trajectory.hpp>

#include "io/crossing_run.hpp"

#ifdef CROWD_WITH_SQLITE
#include <sqlite3.h>
#endif

namespace {

using crowd::Vec2;
using crowd::test::CrossingRun;
using crowd::test::everyOther;
using crowd::test::Kept;
using crowd::test::temporaryFile;

TEST(TrajectoryFormats, ChosenByTheExtension) {
  EXPECT_EQ(crowd::trajectoryFormatFor("run.TXT"), crowd::TrajectoryFormat::PetrackText);
  EXPECT_EQ(crowd::trajectoryFormatFor("out/run.sqlite"), crowd::TrajectoryFormat::JupedsimSqlite);
  EXPECT_EQ(crowd::trajectoryFormatFor("run.db"), crowd::TrajectoryFormat::JupedsimSqlite);
  EXPECT_EQ(crowd::trajectoryFormatFor("run.h5"), crowd::TrajectoryFormat::ArchiveHdf5);
  EXPECT_EQ(crowd::trajectoryFormatFor("run.HDF5"), crowd::TrajectoryFormat::ArchiveHdf5);
  EXPECT_EQ(crowd::trajectoryFormatFor("run.csv"), crowd::TrajectoryFormat::Csv);
  EXPECT_EQ(crowd::trajectoryFormatFor("/dev/stdout"), crowd::TrajectoryFormat::Csv);
  EXPECT_EQ(crowd::trajectoryFormatFor("a.txt/run"), crowd::TrajectoryFormat::Csv);
}

TEST(TrajectoryFormats, FrameRateFromTheTimeStepAsWritten) {
  // A float time step of 0.1 is 0.100000001: the file says 10 frames a second, as written.
  EXPECT_EQ(crowd::writtenTimeStep(0.1f), 0.1);
  crowd::TrajectorySettings settings;
  settings.timeStep = crowd::writtenTimeStep(0.1f);
  EXPECT_EQ(crowd::trajectoryFrameRate(settings), 10.0);
  settings.everySteps = 5;
  EXPECT_EQ(crowd::trajectoryFrameRate(settings), 2.0);
  EXPECT_EQ(crowd::writtenTimeStep(0.25f), 0.25);
}

TEST(TrajectoryFormats, PetrackTextAsPedpyReadsIt) {
  const std::string path = temporaryFile("petrack.txt");
  CrossingRun run;
  crowd::TrajectoryWriter writer(path, everyOther());
  run.runWriting(writer);
  EXPECT_EQ(writer.framesWritten(), 6);

  // PedPy: header lines start with '#'; the frame rate is the first number on a line holding
  // "framerate"; "x/m" or "in m" means metres, "x/cm" or "in cm" centimetres.
  std::ifstream in(path);
  std::string line;
  double frameRate = -1.0;
  bool metres = false, centimetres = false;
  std::vector<Kept> rows;
  while (std::getline(in, line)) {
    if (line.rfind('#', 0) == 0) {
      ASSERT_TRUE(rows.empty()) << "a header line after the data: " << line;
      if (line.find("framerate") != std::string::npos && frameRate < 0.0) {
        std::istringstream words(line);
        for (std::string word; words >> word && frameRate < 0.0;) {
          try {
            std::size_t used = 0;
            const double value = std::stod(word, &used);
            if (used == word.size()) frameRate = value;
          } catch (const std::exception&) {
          }
        }
      }
      metres = metres || line.find("x/m") != std::string::npos || line.find("in m") != std::string::npos;
      centimetres =
          centimetres || line.find("x/cm") != std::string::npos || line.find("in cm") != std::string::npos;
      continue;
    }
    std::istringstream fields(line);
    Kept row{};
    double z = -1.0;
    ASSERT_TRUE(fields >> row.id >> row.frame >> row.x >> row.y >> z) << line;
    EXPECT_EQ(z, 0.0);
    rows.push_back(row);
  }
  EXPECT_EQ(frameRate, 2.0);  // 1 / (2 x 0.25 s).
  EXPECT_TRUE(metres);
  EXPECT_FALSE(centimetres);
  ASSERT_EQ(rows.size(), run.expected.size());
  for (std::size_t k = 0; k < rows.size(); ++k) {
    EXPECT_EQ(rows[k].frame, run.expected[k].frame);
    EXPECT_EQ(rows[k].id, run.expected[k].id);
    EXPECT_NEAR(rows[k].x, run.expected[k].x, 1e-9);
    EXPECT_NEAR(rows[k].y, run.expected[k].y, 1e-9);
  }
  std::filesystem::remove(path);
}

// A CSV has no header lines for a frame rate: with a known time step each row ends in its time.
TEST(TrajectoryFormats, CsvRowsStateTheirTime) {
  const std::string path = temporaryFile("timed.csv");
  CrossingRun run;
  crowd::TrajectoryWriter writer(path, everyOther());
  run.runWriting(writer);
  std::ifstream in(path);
  std::string line;
  ASSERT_TRUE(std::getline(in, line));
  EXPECT_EQ(line, "step,agent,x,y,vx,vy,time");
  std::size_t rows = 0;
  while (std::getline(in, line)) {
    const long long step = std::stoll(line.substr(0, line.find(',')));
    const std::string time = line.substr(line.rfind(',') + 1);
    EXPECT_EQ(std::stod(time), 0.25 * static_cast<double>(step)) << line;
    EXPECT_EQ(step % 2, 0) << line;
    ++rows;
  }
  EXPECT_EQ(rows, run.expected.size());
  std::filesystem::remove(path);
}

std::string contents(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

TEST(TrajectoryFormats, TheWriterThreadWritesWhatTheStepWouldHave) {
  for (const char* name : {"thread.txt", "thread.csv"}) {
    std::string written[2];
    for (const bool background : {false, true}) {
      const std::string path = temporaryFile(std::string(background ? "bg_" : "fg_") + name);
      CrossingRun run;
      crowd::TrajectorySettings settings = everyOther();
      settings.background = background;
      crowd::TrajectoryWriter writer(path, settings);
      run.runWriting(writer);
      EXPECT_EQ(writer.framesWritten(), 6);
      written[background ? 1 : 0] = contents(path);
      std::filesystem::remove(path);
    }
    EXPECT_GT(written[0].size(), 200u) << name;
    EXPECT_EQ(written[0], written[1]) << name;
  }
}

TEST(TrajectoryFormats, NothingIsWrittenAfterTheFileIsComplete) {
  const std::string path = temporaryFile("complete.csv");
  CrossingRun run;
  crowd::TrajectoryWriter writer(path, everyOther());
  writer.write(run.sim);
  ASSERT_NE(writer.file(), nullptr);  // Complete: what commitTogether asks for.
  EXPECT_THROW(writer.write(run.sim), std::runtime_error);
  writer.close();
  EXPECT_EQ(writer.stalls(), 0);  // Still answered once closed.
  EXPECT_EQ(writer.framesWritten(), 1);
  std::filesystem::remove(path);
}

TEST(TrajectoryFormats, FormatsThatStateAFrameRateRefuseAMissingTimeStep) {
  crowd::TrajectorySettings settings;  // timeStep 0: unknown.
  EXPECT_THROW(crowd::TrajectoryWriter(temporaryFile("no_rate.txt"), settings), std::invalid_argument);
  settings.timeStep = 0.1;
  settings.everySteps = 0;
  EXPECT_THROW(crowd::TrajectoryWriter(temporaryFile("every0.csv"), settings), std::invalid_argument);
  settings.everySteps = 1;
  settings.firstStep = 10;
  settings.lastStep = 9;
  EXPECT_THROW(crowd::TrajectoryWriter(temporaryFile("window.csv"), settings), std::invalid_argument);
}

TEST(TrajectoryFormats, WalkableAreaHasTheSolidObstaclesAsHoles) {
  crowd::Simulator sim;
  const std::vector<Vec2> square{Vec2(0.0f, 0.0f), Vec2(2.0f, 0.0f), Vec2(2.0f, 2.0f), Vec2(0.0f, 2.0f)};
  const std::vector<Vec2> apart{Vec2(5.0f, 0.0f), Vec2(6.0f, 0.0f), Vec2(6.0f, 1.0f), Vec2(5.0f, 1.0f)};
  const std::vector<Vec2> wall{Vec2(0.0f, 4.0f), Vec2(6.0f, 4.0f)};
  sim.addObstacle(square);
  sim.addObstacle(apart);
  sim.addObstacle(wall);
  bool overlapping = true;
  const std::string wkt = crowd::walkableAreaWkt(sim, 1.0, &overlapping);
  EXPECT_FALSE(overlapping);
  // The box round everything, 1 m wider, then the two squares clockwise; the wall is no hole.
  EXPECT_EQ(wkt,
            "POLYGON ((-1 -1, 7 -1, 7 5, -1 5, -1 -1), (0 2, 2 2, 2 0, 0 0, 0 2), "
            "(5 1, 6 1, 6 0, 5 0, 5 1))");
  const std::vector<Vec2> across{Vec2(1.5f, 1.5f), Vec2(3.0f, 1.5f), Vec2(3.0f, 3.0f), Vec2(1.5f, 3.0f)};
  sim.addObstacle(across);
  crowd::walkableAreaWkt(sim, 1.0, &overlapping);
  EXPECT_TRUE(overlapping);
}

#ifdef CROWD_WITH_SQLITE

// One column of every row a query returns, as text.
std::vector<std::string> column(sqlite3* db, const char* sql) {
  std::vector<std::string> values;
  sqlite3_stmt* statement = nullptr;
  EXPECT_EQ(sqlite3_prepare_v2(db, sql, -1, &statement, nullptr), SQLITE_OK) << sql;
  while (sqlite3_step(statement) == SQLITE_ROW) {
    values.emplace_back(reinterpret_cast<const char*>(sqlite3_column_text(statement, 0)));
  }
  sqlite3_finalize(statement);
  return values;
}

TEST(TrajectoryFormats, JupedsimDatabaseAsPedpyReadsIt) {
  const std::string path = temporaryFile("jupedsim.sqlite");
  CrossingRun run;
  crowd::TrajectorySettings settings = everyOther();
  settings.walkableArea = crowd::walkableAreaWkt(run.sim);
  crowd::TrajectoryWriter writer(path, settings);
  run.runWriting(writer);

  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READONLY, nullptr), SQLITE_OK);
  // PedPy's queries, word for word.
  EXPECT_EQ(column(db, "SELECT value FROM metadata WHERE key = 'version'"), std::vector<std::string>{"2"});
  const auto fps = column(db, "select value from metadata where key = 'fps'");
  ASSERT_EQ(fps.size(), 1u);
  EXPECT_EQ(std::stod(fps[0]), 2.0);
  sqlite3_stmt* rows = nullptr;
  ASSERT_EQ(sqlite3_prepare_v2(db, "select frame, id, pos_x as x, pos_y as y from trajectory_data", -1, &rows,
                               nullptr),
            SQLITE_OK);
  std::size_t k = 0;
  while (sqlite3_step(rows) == SQLITE_ROW) {
    ASSERT_LT(k, run.expected.size());
    EXPECT_EQ(sqlite3_column_int64(rows, 0), run.expected[k].frame);
    EXPECT_EQ(sqlite3_column_int64(rows, 1), run.expected[k].id);
    EXPECT_EQ(sqlite3_column_double(rows, 2), run.expected[k].x);
    EXPECT_EQ(sqlite3_column_double(rows, 3), run.expected[k].y);
    ++k;
  }
  sqlite3_finalize(rows);
  EXPECT_EQ(k, run.expected.size());
  const auto wkt = column(db, "SELECT wkt FROM geometry");
  ASSERT_EQ(wkt.size(), 1u);
  EXPECT_EQ(wkt[0], settings.walkableArea);
  EXPECT_EQ(wkt[0].rfind("POLYGON ((993 -2007", 0), 0u) << wkt[0];  // The world's frame, not the simulator's.
  // JuPedSim's own tables: a geometry per frame and the bounds.
  EXPECT_EQ(column(db, "SELECT count(*) FROM frame_data JOIN geometry ON geometry_hash = hash"),
            std::vector<std::string>{"6"});
  EXPECT_EQ(column(db, "SELECT count(*) FROM metadata WHERE key IN ('xmin', 'xmax', 'ymin', 'ymax')"),
            std::vector<std::string>{"4"});
  EXPECT_EQ(column(db, "SELECT count(*) FROM sqlite_master WHERE name = 'frame_id_idx'"),
            std::vector<std::string>{"1"});
  // Orientations are unit vectors.
  EXPECT_EQ(
      column(db, "SELECT count(*) FROM trajectory_data WHERE abs(ori_x * ori_x + ori_y * ori_y - 1) > 1e-6"),
      std::vector<std::string>{"0"});
  sqlite3_close(db);
  std::filesystem::remove(path);
}

TEST(TrajectoryFormats, JupedsimDatabaseRefusesA3dWorld) {
  crowd::TrajectorySettings settings = everyOther();
  settings.dimensions = 3;
  EXPECT_THROW(crowd::TrajectoryWriter(temporaryFile("world3.sqlite"), settings), std::invalid_argument);
  EXPECT_FALSE(std::filesystem::exists(temporaryFile("world3.sqlite")));
}

#else

TEST(TrajectoryFormats, JupedsimDatabaseAsPedpyReadsIt) {
  GTEST_SKIP() << "this build has no SQLite (libsqlite3-dev): JuPedSim databases are not tested";
}

#endif

}  // namespace
