// Playing back a trajectory file (crowdsim run --out: `step,agent,x,y,vx,vy`, world
// coordinates): frames of agents, drawn like a live run's when the scenario that made it gives
// each agent's radius, speed limit and profile.
#pragma once

#include <cstdint>
#include <span>
#include <stdexcept>
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

/// A trajectory file that cannot be replayed: bad input (crowdsim's exit code 2).
class ReplayError : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

class Replay {
 public:
  /// Reads a trajectory file. Throws ReplayError naming the file and line of a malformed row, a
  /// missing header, or steps out of order, or naming a file that cannot be read.
  static Replay load(const std::string& path);

  /// One more than the largest agent number in the file: the agents of the run it records.
  std::size_t agentCount() const { return agentCount_; }

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
  std::size_t agentCount_ = 0;
};

}  // namespace crowd::viewer
