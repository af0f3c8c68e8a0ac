// The data archive's HDF5 trajectories (crowd/trajectory.hpp), read back with HDF5 the way PedPy's
// loaders read them: the `trajectory` dataset's fields by name (id, frame, x, y), its `fps`
// attribute, and the root's `wkt_geometry`, compared with what the simulator held.
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include <crowd/simulator.hpp>
#include <crowd/simulator3.hpp>
#include <crowd/trajectory.hpp>

#include "io/crossing_run.hpp"

#ifdef CROWD_WITH_HDF5
#include <hdf5.h>
#endif

namespace {

using crowd::test::CrossingRun;
using crowd::test::everyOther;
using crowd::test::temporaryFile;

#ifdef CROWD_WITH_HDF5

// What PedPy takes from a row, in a memory layout of the reader's own: HDF5 matches the fields
// by name, as h5py does, so the file's order and widths may differ.
struct ReadRow {
  std::int64_t id;
  std::int64_t frame;
  double x, y, z;
};

struct Archive {
  std::vector<ReadRow> rows;
  double fps = -1.0;
  std::string wkt;  // Empty when the file has none.
  bool hasWkt = false;
  std::vector<std::string> fields;
  hsize_t storedBytes = 0;
  bool shuffled = false, deflated = false;
};

std::string textAttribute(hid_t on, const char* name) {
  const hid_t attribute = H5Aopen(on, name, H5P_DEFAULT);
  const hid_t type = H5Aget_type(attribute);  // As stored: HDF5 converts no string character set.
  char* text = nullptr;
  if (H5Tis_variable_str(type) > 0) H5Aread(attribute, type, &text);
  std::string value = text != nullptr ? text : "";
  H5free_memory(text);
  H5Tclose(type);
  H5Aclose(attribute);
  return value;
}

Archive readArchive(const std::string& path) {
  Archive a;
  const hid_t file = H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
  if (file < 0) throw std::runtime_error("cannot open " + path);
  const hid_t dataset = H5Dopen2(file, "trajectory", H5P_DEFAULT);
  if (dataset < 0) throw std::runtime_error("no trajectory dataset in " + path);
  const hid_t stored = H5Dget_type(dataset);
  for (int k = 0; k < H5Tget_nmembers(stored); ++k) {
    char* name = H5Tget_member_name(stored, static_cast<unsigned>(k));
    a.fields.emplace_back(name);
    H5free_memory(name);
  }
  H5Tclose(stored);
  const hid_t space = H5Dget_space(dataset);
  hsize_t count = 0;
  H5Sget_simple_extent_dims(space, &count, nullptr);
  H5Sclose(space);
  const hid_t mine = H5Tcreate(H5T_COMPOUND, sizeof(ReadRow));
  H5Tinsert(mine, "x", HOFFSET(ReadRow, x), H5T_NATIVE_DOUBLE);
  H5Tinsert(mine, "frame", HOFFSET(ReadRow, frame), H5T_NATIVE_INT64);
  H5Tinsert(mine, "y", HOFFSET(ReadRow, y), H5T_NATIVE_DOUBLE);
  H5Tinsert(mine, "id", HOFFSET(ReadRow, id), H5T_NATIVE_INT64);
  H5Tinsert(mine, "z", HOFFSET(ReadRow, z), H5T_NATIVE_DOUBLE);
  a.rows.resize(count);
  if (count > 0) H5Dread(dataset, mine, H5S_ALL, H5S_ALL, H5P_DEFAULT, a.rows.data());
  H5Tclose(mine);
  const hid_t fps = H5Aopen(dataset, "fps", H5P_DEFAULT);
  H5Aread(fps, H5T_NATIVE_DOUBLE, &a.fps);
  H5Aclose(fps);
  a.storedBytes = H5Dget_storage_size(dataset);
  const hid_t layout = H5Dget_create_plist(dataset);
  for (int k = 0; k < H5Pget_nfilters(layout); ++k) {
    unsigned flags = 0;
    std::size_t values = 0;
    const H5Z_filter_t filter =
        H5Pget_filter2(layout, static_cast<unsigned>(k), &flags, &values, nullptr, 0, nullptr, nullptr);
    a.shuffled = a.shuffled || filter == H5Z_FILTER_SHUFFLE;
    a.deflated = a.deflated || filter == H5Z_FILTER_DEFLATE;
  }
  H5Pclose(layout);
  a.hasWkt = H5Aexists(file, "wkt_geometry") > 0;
  if (a.hasWkt) a.wkt = textAttribute(file, "wkt_geometry");
  H5Dclose(dataset);
  H5Fclose(file);
  return a;
}

TEST(TrajectoryHdf5, ReadAsPedpyReadsTheDataArchive) {
  const std::string path = temporaryFile("archive.h5");
  CrossingRun run;
  crowd::TrajectorySettings settings = everyOther();
  settings.walkableArea = crowd::walkableAreaWkt(run.sim);
  crowd::TrajectoryWriter writer(path, settings);
  run.runWriting(writer);
  EXPECT_EQ(writer.framesWritten(), 6);
  const Archive a = readArchive(path);
  EXPECT_EQ(a.fields, (std::vector<std::string>{"id", "frame", "x", "y", "z"}));
  EXPECT_EQ(a.fps, 2.0);  // 1 / (2 x 0.25 s).
  ASSERT_TRUE(a.hasWkt);
  EXPECT_EQ(a.wkt, settings.walkableArea);
  EXPECT_EQ(a.wkt.rfind("POLYGON ((", 0), 0u);
  ASSERT_EQ(a.rows.size(), run.expected.size());
  for (std::size_t k = 0; k < a.rows.size(); ++k) {
    EXPECT_EQ(a.rows[k].frame, run.expected[k].frame);
    EXPECT_EQ(a.rows[k].id, run.expected[k].id);
    EXPECT_EQ(a.rows[k].x, run.expected[k].x);  // The very double the simulator's frame gives.
    EXPECT_EQ(a.rows[k].y, run.expected[k].y);
    EXPECT_EQ(a.rows[k].z, 0.0);
  }
  std::filesystem::remove(path);
}

// A crowd large enough that its rows fill several chunks: every row arrives, in frame order, and
// the stored dataset is shuffled, deflated and smaller than its rows.
TEST(TrajectoryHdf5, RowsAcrossChunksAreCompressedAndComplete) {
  crowd::SimulatorConfig config;
  config.timeStep = 0.1f;
  crowd::Simulator sim(config);
  for (int k = 0; k < 3000; ++k) {
    crowd::AgentDef agent;
    agent.position = crowd::Vec2(static_cast<float>(k % 60) * 2.0f, static_cast<float>(k / 60) * 2.0f);
    agent.goal = agent.position + crowd::Vec2(30.0f, 0.0f);
    agent.params.radius = 0.3f;
    sim.addAgent(agent);
  }
  const std::string path = temporaryFile("chunks.h5");
  crowd::TrajectorySettings settings;
  settings.timeStep = 0.1;
  crowd::TrajectoryWriter writer(path, settings);
  std::vector<float> lastX;
  for (int s = 0; s <= 11; ++s) {
    if (s > 0) sim.step();
    writer.write(sim);
  }
  for (std::size_t i = 0; i < sim.agentCount(); ++i) lastX.push_back(sim.positions()[i].x);
  writer.close();
  EXPECT_EQ(writer.rowsWritten(), 36000);
  const Archive a = readArchive(path);
  ASSERT_EQ(a.rows.size(), 36000u);  // More than two chunks of rows.
  for (std::size_t k = 0; k < a.rows.size(); ++k) {
    ASSERT_EQ(a.rows[k].frame, static_cast<std::int64_t>(k / 3000)) << "row " << k;
    ASSERT_EQ(a.rows[k].id, static_cast<std::int64_t>(k % 3000)) << "row " << k;
  }
  for (std::size_t i = 0; i < lastX.size(); ++i)
    EXPECT_EQ(a.rows[33000 + i].x, static_cast<double>(lastX[i]));
  EXPECT_EQ(a.fps, 10.0);
  EXPECT_FALSE(a.hasWkt);  // No walkable area was given.
  EXPECT_TRUE(a.shuffled);
  EXPECT_TRUE(a.deflated);
  EXPECT_LT(a.storedBytes, 36000u * sizeof(ReadRow) / 2);
  std::filesystem::remove(path);
}

TEST(TrajectoryHdf5, A3dWorldKeepsItsHeights) {
  crowd::SimulatorConfig config;
  config.timeStep = 0.5f;
  crowd::Simulator3 sim(config);
  crowd::AgentDef3 agent;
  agent.position = crowd::Vec3(1.0f, 2.0f, 3.0f);
  agent.goal = crowd::Vec3(1.0f, 2.0f, 13.0f);
  sim.addAgent(agent);
  const std::string path = temporaryFile("world3.h5");
  crowd::TrajectorySettings settings;
  settings.dimensions = 3;
  settings.timeStep = 0.5;
  crowd::TrajectoryWriter writer(path, settings);
  writer.write(sim);
  sim.step();
  writer.write(sim);
  const float z = sim.positions()[0].z;
  writer.close();
  const Archive a = readArchive(path);
  ASSERT_EQ(a.rows.size(), 2u);
  EXPECT_EQ(a.rows[0].z, 3.0);
  EXPECT_EQ(a.rows[1].z, static_cast<double>(z));
  EXPECT_GT(a.rows[1].z, 3.0);  // It rose toward its goal.
  EXPECT_EQ(a.fps, 2.0);
  std::filesystem::remove(path);
}

// A run that stops before close leaves the old file as it was, never a half-written one.
TEST(TrajectoryHdf5, AnUnfinishedFileLeavesTheOldOneInPlace) {
  const std::string path = temporaryFile("unfinished.h5");
  std::ofstream(path) << "old";
  {
    CrossingRun run;
    crowd::TrajectoryWriter writer(path, everyOther());
    writer.write(run.sim);
  }
  std::ifstream in(path);
  std::string text;
  in >> text;
  EXPECT_EQ(text, "old");
  std::filesystem::remove(path);
}

#else

TEST(TrajectoryHdf5, ReadAsPedpyReadsTheDataArchive) {
  GTEST_SKIP() << "this build has no HDF5 (install libhdf5-dev): the .h5 format is refused";
}

#endif

// A database-like file cannot be written to one of the process's streams, even through a link.
TEST(TrajectoryHdf5, AStreamOrAMissingTimeStepIsRefused) {
  const std::string link = temporaryFile("stream.h5");
  std::filesystem::remove(link);
  std::filesystem::create_symlink("/dev/stdout", link);
  EXPECT_THROW(crowd::TrajectoryWriter(link, everyOther()), std::invalid_argument);
  std::filesystem::remove(link);
  // No time step, so no frame rate to state.
  EXPECT_THROW(crowd::TrajectoryWriter(temporaryFile("no_time.h5"), crowd::TrajectorySettings{}),
               std::invalid_argument);
}

}  // namespace
