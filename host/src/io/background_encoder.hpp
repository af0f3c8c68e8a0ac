// Writing trajectories while the crowd moves: a kept step is copied into one of two buffers and
// encoded on a writer thread, so the step waits for the disk only when the writer has fallen a
// whole buffer behind (counted in stalls()).
#pragma once

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <exception>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "io/trajectory_encoder.hpp"

namespace crowd {

class BackgroundEncoder final : public TrajectoryEncoder {
 public:
  explicit BackgroundEncoder(std::unique_ptr<TrajectoryEncoder> encoder);
  /// Stops the thread; a frame not yet encoded is dropped (the run failed or was stopped).
  ~BackgroundEncoder() override;

  /// Copies the frame and returns; throws what the writer thread met on an earlier frame.
  void write(const TrajectoryFrame& frame) override;
  /// Encodes every frame still waiting, then finishes the file; throws what the thread met.
  void finish() override;

  /// How many times write() had to wait for a free buffer, and for how long in all.
  std::int64_t stalls() const { return stalls_; }
  double stallSeconds() const { return stallSeconds_; }

 private:
  // A frame's own copy of the columns it shows.
  struct Snapshot {
    std::int64_t step = 0;
    std::int64_t frame = 0;
    glm::dvec2 origin{0.0, 0.0};
    std::vector<AgentId> ids;
    std::vector<Vec2> positions2, velocities2;
    std::vector<Vec3> positions3, velocities3;
    TrajectoryFrame view() const;
  };

  void run();
  void stop();
  void rethrowFailure();

  std::unique_ptr<TrajectoryEncoder> encoder_;
  std::vector<Snapshot> buffers_;
  std::mutex mutex_;
  std::condition_variable changed_;
  std::deque<Snapshot*> free_;     // Buffers ready to be filled.
  std::deque<Snapshot*> waiting_;  // Filled buffers, oldest first.
  bool encoding_ = false;          // The thread holds a buffer.
  bool stopping_ = false;
  std::exception_ptr failure_;
  std::int64_t stalls_ = 0;
  double stallSeconds_ = 0.0;
  std::thread thread_;
};

}  // namespace crowd
