// The pedestrian-dynamics data archive's HDF5 layout (crowd/trajectory.hpp), as PedPy reads it
// (load_trajectory_from_ped_data_archive_hdf5, load_walkable_area_from_ped_data_archive_hdf5):
//   /trajectory       one record {id, frame, x, y, z} per agent per kept frame, in frame order;
//                     attribute fps (the frame rate), and the steps kept
//   / attributes      wkt_geometry (the walkable area, planar worlds), the time step, units
// The dataset grows by whole chunks: rows gather in a chunk-sized buffer that is compressed
// (byte shuffle, then deflate) and written once, so no chunk is read back or compressed twice.
// Positions are doubles (the world coordinate, the simulator's origin added back); the shuffle
// groups their bytes so that the slowly changing high bytes compress to little.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include <crowd/version.hpp>

#include "io/trajectory_encoder.hpp"

#ifdef CROWD_WITH_HDF5
#include <hdf5.h>
#endif

namespace crowd {

#ifdef CROWD_WITH_HDF5
namespace {

struct ArchiveRow {
  std::int64_t id;
  std::int64_t frame;
  double x;
  double y;
  double z;
};

// Rows a chunk holds: 16,384 rows of 40 bytes, 640 KiB, large enough for deflate to find the
// repeats of a column and small enough that a reader of one frame decompresses little more.
constexpr hsize_t kChunkRows = 16384;

class ArchiveEncoder final : public TrajectoryEncoder {
 public:
  ArchiveEncoder(const std::string& path, const TrajectorySettings& settings) : path_(path) {
    H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);  // Failures are thrown with the file's name instead.
    file_ = H5Fcreate(path.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
    if (file_ < 0) fail("creating");
    rowType_ = H5Tcreate(H5T_COMPOUND, sizeof(ArchiveRow));
    H5Tinsert(rowType_, "id", HOFFSET(ArchiveRow, id), H5T_NATIVE_INT64);
    H5Tinsert(rowType_, "frame", HOFFSET(ArchiveRow, frame), H5T_NATIVE_INT64);
    H5Tinsert(rowType_, "x", HOFFSET(ArchiveRow, x), H5T_NATIVE_DOUBLE);
    H5Tinsert(rowType_, "y", HOFFSET(ArchiveRow, y), H5T_NATIVE_DOUBLE);
    H5Tinsert(rowType_, "z", HOFFSET(ArchiveRow, z), H5T_NATIVE_DOUBLE);

    const hsize_t none = 0;
    const hsize_t unlimited = H5S_UNLIMITED;
    const hid_t space = H5Screate_simple(1, &none, &unlimited);
    const hid_t layout = H5Pcreate(H5P_DATASET_CREATE);
    H5Pset_chunk(layout, 1, &kChunkRows);
    H5Pset_shuffle(layout);
    H5Pset_deflate(layout, 1);  // The fastest level: the writer keeps pace with the step.
    dataset_ = H5Dcreate2(file_, "trajectory", rowType_, space, H5P_DEFAULT, layout, H5P_DEFAULT);
    H5Pclose(layout);
    H5Sclose(space);
    if (dataset_ < 0) fail("creating the trajectory dataset of");

    setDouble(dataset_, "fps", trajectoryFrameRate(settings));
    setInteger(dataset_, "every_steps", settings.everySteps);
    setInteger(dataset_, "first_step", settings.firstStep);
    if (settings.lastStep != std::numeric_limits<std::int64_t>::max()) {
      setInteger(dataset_, "last_step", settings.lastStep);
    }
    setText(dataset_, "file_content",
            "id: agent number; frame: step / every_steps (frame 0 is the initial state); x, y, z in m");
    setDouble(file_, "time_step", settings.timeStep);
    setText(file_, "unit", "m");
    setText(file_, "writer", "crowdsim");
    setText(file_, "crowdsim_version", version());
    setText(file_, "git_revision", gitRevision());
    if (settings.seed) setInteger(file_, "seed", static_cast<std::int64_t>(*settings.seed));
    if (!settings.walkableArea.empty()) setText(file_, "wkt_geometry", settings.walkableArea);
    buffer_.reserve(kChunkRows);
  }

  ~ArchiveEncoder() override { close(false); }

  void write(const TrajectoryFrame& f) override {
    for (std::size_t i = 0; i < f.ids.size(); ++i) {
      ArchiveRow row{static_cast<std::int64_t>(f.ids[i].index), f.frame, 0.0, 0.0, 0.0};
      if (f.positions3.empty()) {
        row.x = f.origin.x + static_cast<double>(f.positions2[i].x);
        row.y = f.origin.y + static_cast<double>(f.positions2[i].y);
      } else {
        row.x = static_cast<double>(f.positions3[i].x);
        row.y = static_cast<double>(f.positions3[i].y);
        row.z = static_cast<double>(f.positions3[i].z);
      }
      buffer_.push_back(row);
      if (buffer_.size() == kChunkRows) flushRows();
    }
    ++frames_;
  }

  void finish() override {
    if (file_ < 0) return;
    flushRows();
    setInteger(dataset_, "frames", frames_);
    close(true);
  }

 private:
  [[noreturn]] void fail(const char* doing) const {
    throw std::runtime_error("HDF5 trajectories (" + path_ + "): " + doing + " the file failed");
  }

  // Appends the buffered rows to the dataset: one whole chunk, or the last part of one.
  void flushRows() {
    if (buffer_.empty()) return;
    const hsize_t count = buffer_.size();
    const hsize_t total = rows_ + count;
    if (H5Dset_extent(dataset_, &total) < 0) fail("growing");
    const hid_t fileSpace = H5Dget_space(dataset_);
    H5Sselect_hyperslab(fileSpace, H5S_SELECT_SET, &rows_, nullptr, &count, nullptr);
    const hid_t memorySpace = H5Screate_simple(1, &count, nullptr);
    const herr_t written = H5Dwrite(dataset_, rowType_, memorySpace, fileSpace, H5P_DEFAULT, buffer_.data());
    H5Sclose(memorySpace);
    H5Sclose(fileSpace);
    if (written < 0) fail("writing");
    rows_ = total;
    buffer_.clear();
  }

  void setDouble(hid_t on, const char* name, double value) {
    setAttribute(on, name, H5T_NATIVE_DOUBLE, &value);
  }
  void setInteger(hid_t on, const char* name, std::int64_t value) {
    setAttribute(on, name, H5T_NATIVE_INT64, &value);
  }
  // A variable-length UTF-8 string: h5py reads it as a Python str, which PedPy's WalkableArea takes.
  void setText(hid_t on, const char* name, const std::string& value) {
    const hid_t type = H5Tcopy(H5T_C_S1);
    H5Tset_size(type, H5T_VARIABLE);
    H5Tset_cset(type, H5T_CSET_UTF8);
    const char* text = value.c_str();
    setAttribute(on, name, type, &text);
    H5Tclose(type);
  }
  void setAttribute(hid_t on, const char* name, hid_t type, const void* value) {
    const hid_t scalar = H5Screate(H5S_SCALAR);
    const hid_t attribute = H5Acreate2(on, name, type, scalar, H5P_DEFAULT, H5P_DEFAULT);
    const herr_t written = attribute < 0 ? -1 : H5Awrite(attribute, type, value);
    if (attribute >= 0) H5Aclose(attribute);
    H5Sclose(scalar);
    if (written < 0) fail("writing the metadata of");
  }

  void close(bool reportFailure) {
    if (dataset_ >= 0) H5Dclose(dataset_);
    if (rowType_ >= 0) H5Tclose(rowType_);
    dataset_ = rowType_ = -1;
    if (file_ >= 0 && H5Fclose(file_) < 0 && reportFailure) {
      file_ = -1;
      fail("closing");
    }
    file_ = -1;
  }

  std::string path_;
  hid_t file_ = -1;
  hid_t dataset_ = -1;
  hid_t rowType_ = -1;
  std::vector<ArchiveRow> buffer_;
  hsize_t rows_ = 0;
  std::int64_t frames_ = 0;
};

}  // namespace

std::unique_ptr<TrajectoryEncoder> makeArchiveEncoder(const std::string& path,
                                                      const TrajectorySettings& settings) {
  return std::make_unique<ArchiveEncoder>(path, settings);
}

#else

std::unique_ptr<TrajectoryEncoder> makeArchiveEncoder(const std::string& path, const TrajectorySettings&) {
  throw std::runtime_error("HDF5 trajectories (" + path +
                           "): this build has no HDF5 (install libhdf5-dev and build again)");
}

#endif

}  // namespace crowd
