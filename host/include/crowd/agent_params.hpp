// Per-agent parameters: what RVO2 calls the agent defaults, plus the preferred speed and goal
// radius that the goal-seeking rule needs.
#pragma once

#include <string>

#include <crowd/kernels/config.hpp>

namespace crowd {

/// Parameters of one agent. Defaults are those of RVO2's Circle example. Lengths are in world
/// units (metres, say), times in seconds.
struct AgentParams {
  float radius = 1.5f;           ///< Disc radius. [Limit: >= 0]
  float maxSpeed = 2.0f;         ///< Largest speed ORCA may choose. [Limit: >= 0]
  float prefSpeed = 1.0f;        ///< Speed towards the goal when far from it. [Limit: >= 0]
  float neighborDist = 15.0f;    ///< Agents further than this are ignored. [Limit: >= 0]
  int maxNeighbors = 10;         ///< How many of the nearest agents are avoided. [Limit: 0..kMaxNeighbors]
  float timeHorizon = 10.0f;     ///< How far ahead collisions with agents are avoided. [Limit: > 0]
  float timeHorizonObst = 10.0f; ///< How far ahead collisions with obstacles are avoided. [Limit: > 0]
  float goalRadius = -1.0f;      ///< Within this of its goal an agent has arrived; < 0 means `radius`.

  bool operator==(const AgentParams&) const = default;
};

/// Empty when `params` is within the limits above; otherwise a sentence naming the first
/// offending field and value (non-finite values included).
std::string checkAgentParams(const AgentParams& params);

}  // namespace crowd
