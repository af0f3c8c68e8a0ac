// Playing back a trajectory file (crowdsim run --out: `step,agent,x,y,vx,vy`, world
// coordinates): frames of agents, drawn like a live run's when the scenario that made it gives
// each agent's radius, speed limit and profile.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include <glm/vec2.hpp>

#include <crowd/viewer/scene.hpp>

namespace crowd::viewer {

/// How an agent number looks, from its scenario (or defaults without one).
struct AgentLook {
  float radius = 0.5f;
  float maxSpeed = 0.0f;  ///< 0: the fastest speed in the file.
  std::uint32_t profile = 0;
};

class Replay {
 public:
  /// Reads a trajectory file. Throws std::runtime_error naming the file and line of a malformed
  /// row, a missing header, or steps out of order.
  static Replay load(const std::string& path);

  std::size_t frameCount() const { return frameStart_.size(); }
  std::int64_t stepOf(std::size_t frame) const { return steps_[frame]; }
  /// The frame whose step is `step`, or the last one before it.
  std::size_t frameAt(std::int64_t step) const;

  /// Frame `frame`'s agents into `out`, at `origin` subtracted from their world positions (the
  /// simulator's frame), coloured by speed or group from `looks` (indexed by agent number).
  void fill(std::size_t frame, glm::dvec2 origin, std::span<const AgentLook> looks, ColorBy colorBy,
            double timeStep, Frame& out) const;

 private:
  struct Row {
    std::uint32_t agent;
    double x, y;
    float vx, vy;
  };
  std::vector<Row> rows_;
  std::vector<std::size_t> frameStart_;  // Row where each frame starts.
  std::vector<std::int64_t> steps_;
  float fastest_ = 0.0f;
};

}  // namespace crowd::viewer
