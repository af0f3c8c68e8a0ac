// JuPedSim's trajectory database, version 2 (crowd/trajectory.hpp), as PedPy reads it:
//   metadata(key, value)            version 2, fps, and the bounds xmin, xmax, ymin, ymax
//   trajectory_data(frame, id, pos_x, pos_y, ori_x, ori_y)
//   geometry(hash, wkt)             the walkable area
//   frame_data(frame, geometry_hash)
// The database is built in the output's temporary file, without a journal (a failed run removes
// the file anyway), one transaction per frame; the index on (frame, id) is made at the end.
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include <crowd/version.hpp>

#include "io/trajectory_encoder.hpp"

#ifdef CROWD_WITH_SQLITE
#include <sqlite3.h>
#endif

namespace crowd {

#ifdef CROWD_WITH_SQLITE
namespace {

// A 63-bit FNV-1a hash of the walkable area's text, the key frame_data refers to it by.
std::int64_t geometryHash(const std::string& wkt) {
  std::uint64_t h = 14695981039346656037ull;
  for (const unsigned char c : wkt) h = (h ^ c) * 1099511628211ull;
  return static_cast<std::int64_t>(h >> 1);
}

class JupedsimEncoder final : public TrajectoryEncoder {
 public:
  JupedsimEncoder(const std::string& path, const TrajectorySettings& settings)
      : path_(path), hash_(geometryHash(settings.walkableArea)) {
    if (sqlite3_open_v2(path.c_str(), &db_, SQLITE_OPEN_READWRITE, nullptr) != SQLITE_OK) fail("opening");
    exec("PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF;");
    exec(
        "BEGIN;"
        "CREATE TABLE metadata(key TEXT NOT NULL UNIQUE PRIMARY KEY, value TEXT NOT NULL);"
        "CREATE TABLE trajectory_data(frame INTEGER NOT NULL, id INTEGER NOT NULL, pos_x REAL NOT NULL,"
        " pos_y REAL NOT NULL, ori_x REAL NOT NULL, ori_y REAL NOT NULL);"
        "CREATE TABLE geometry(hash INTEGER NOT NULL, wkt TEXT NOT NULL);"
        "CREATE TABLE frame_data(frame INTEGER NOT NULL, geometry_hash INTEGER NOT NULL);");
    setMetadata("version", "2");
    setMetadata("fps", shortestDecimal(trajectoryFrameRate(settings)));
    // Beyond JuPedSim's keys, which PedPy ignores: what wrote the file and which steps it kept.
    setMetadata("crowdsim_version", version());
    setMetadata("git_revision", gitRevision());
    if (settings.seed) setMetadata("seed", std::to_string(*settings.seed));
    setMetadata("time_step", shortestDecimal(settings.timeStep));
    setMetadata("every_steps", std::to_string(settings.everySteps));
    setMetadata("first_step", std::to_string(settings.firstStep));
    if (settings.lastStep != std::numeric_limits<std::int64_t>::max()) {
      setMetadata("last_step", std::to_string(settings.lastStep));
    }
    sqlite3_stmt* geometry = prepare("INSERT INTO geometry VALUES(?, ?)");
    sqlite3_bind_int64(geometry, 1, hash_);
    sqlite3_bind_text(geometry, 2, settings.walkableArea.c_str(), -1, SQLITE_TRANSIENT);
    step(geometry);
    sqlite3_finalize(geometry);
    exec("COMMIT;");
    row_ = prepare("INSERT INTO trajectory_data VALUES(?, ?, ?, ?, ?, ?)");
    frameRow_ = prepare("INSERT INTO frame_data VALUES(?, ?)");
  }

  // A run that failed: the file is removed anyway, so a close that fails says nothing.
  ~JupedsimEncoder() override { close(false); }

  void write(const TrajectoryFrame& f) override {
    exec("BEGIN;");
    for (std::size_t i = 0; i < f.ids.size(); ++i) {
      const unsigned id = f.ids[i].index;
      const double x = f.origin.x + static_cast<double>(f.positions2[i].x);
      const double y = f.origin.y + static_cast<double>(f.positions2[i].y);
      minX_ = std::fmin(minX_, x);
      maxX_ = std::fmax(maxX_, x);
      minY_ = std::fmin(minY_, y);
      maxY_ = std::fmax(maxY_, y);
      // Facing where the agent walks; one standing still keeps the way it last faced.
      if (orientation_.size() <= id) orientation_.resize(id + 1, Vec2(1.0f, 0.0f));
      const Vec2 v = f.velocities2[i];
      const float speed = std::sqrt(v.x * v.x + v.y * v.y);
      if (speed > 0.0f) orientation_[id] = Vec2(v.x / speed, v.y / speed);
      sqlite3_bind_int64(row_, 1, f.frame);
      sqlite3_bind_int64(row_, 2, id);
      sqlite3_bind_double(row_, 3, x);
      sqlite3_bind_double(row_, 4, y);
      sqlite3_bind_double(row_, 5, static_cast<double>(orientation_[id].x));
      sqlite3_bind_double(row_, 6, static_cast<double>(orientation_[id].y));
      step(row_);
    }
    sqlite3_bind_int64(frameRow_, 1, f.frame);
    sqlite3_bind_int64(frameRow_, 2, hash_);
    step(frameRow_);
    exec("COMMIT;");
  }

  void finish() override {
    if (db_ == nullptr) return;
    exec("BEGIN;");
    if (minX_ <= maxX_) {
      setMetadata("xmin", shortestDecimal(minX_));
      setMetadata("xmax", shortestDecimal(maxX_));
      setMetadata("ymin", shortestDecimal(minY_));
      setMetadata("ymax", shortestDecimal(maxY_));
    }
    exec("CREATE INDEX frame_id_idx ON trajectory_data(frame, id); COMMIT;");
    close(true);
  }

 private:
  [[noreturn]] void fail(const char* doing) const {
    throw std::runtime_error("JuPedSim SQLite trajectories (" + path_ + "): " + doing +
                             " failed: " + (db_ != nullptr ? sqlite3_errmsg(db_) : "out of memory"));
  }

  void exec(const char* sql) {
    if (sqlite3_exec(db_, sql, nullptr, nullptr, nullptr) != SQLITE_OK) fail("writing");
  }

  sqlite3_stmt* prepare(const char* sql) {
    sqlite3_stmt* statement = nullptr;
    if (sqlite3_prepare_v2(db_, sql, -1, &statement, nullptr) != SQLITE_OK) fail("preparing");
    return statement;
  }

  void step(sqlite3_stmt* statement) {
    if (sqlite3_step(statement) != SQLITE_DONE) fail("writing");
    sqlite3_reset(statement);
  }

  void setMetadata(const char* key, const std::string& value) {
    sqlite3_stmt* statement = prepare("INSERT OR REPLACE INTO metadata VALUES(?, ?)");
    sqlite3_bind_text(statement, 1, key, -1, SQLITE_STATIC);
    sqlite3_bind_text(statement, 2, value.c_str(), -1, SQLITE_TRANSIENT);
    step(statement);
    sqlite3_finalize(statement);
  }

  void close(bool reportFailure) {
    sqlite3_finalize(row_);
    sqlite3_finalize(frameRow_);
    row_ = frameRow_ = nullptr;
    if (db_ != nullptr && sqlite3_close(db_) != SQLITE_OK && reportFailure) fail("closing");
    db_ = nullptr;
  }

  std::string path_;
  std::int64_t hash_;
  sqlite3* db_ = nullptr;
  sqlite3_stmt* row_ = nullptr;
  sqlite3_stmt* frameRow_ = nullptr;
  std::vector<Vec2> orientation_;  // Per agent id index.
  double minX_ = std::numeric_limits<double>::infinity();
  double maxX_ = -std::numeric_limits<double>::infinity();
  double minY_ = std::numeric_limits<double>::infinity();
  double maxY_ = -std::numeric_limits<double>::infinity();
};

}  // namespace

std::unique_ptr<TrajectoryEncoder> makeJupedsimEncoder(const std::string& path,
                                                       const TrajectorySettings& settings) {
  return std::make_unique<JupedsimEncoder>(path, settings);
}

#else

std::unique_ptr<TrajectoryEncoder> makeJupedsimEncoder(const std::string& path, const TrajectorySettings&) {
  throw std::runtime_error("JuPedSim SQLite trajectories (" + path +
                           "): this build has no SQLite (install libsqlite3-dev and build again)");
}

#endif

}  // namespace crowd
