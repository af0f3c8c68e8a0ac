// Per-agent parameters: what RVO2 calls the agent defaults, plus the preferred speed and goal
// radius that the goal-seeking rule needs.
#pragma once

#include <compare>
#include <string>
#include <string_view>

#include <crowd/kernels/config.hpp>
#include <crowd/limits.hpp>

namespace crowd {

/// Parameters of one agent. Defaults are those of RVO2's Circle example. Lengths are in world
/// units (metres, say), times in seconds. The limits are those of crowd/limits.hpp.
struct AgentParams {
  float radius = 1.5f;            ///< Disc radius. [Limit: 0..1e4]
  float maxSpeed = 2.0f;          ///< Largest speed ORCA may choose. [Limit: 0..1e4]
  float prefSpeed = 1.0f;         ///< Speed towards the goal when far from it. [Limit: 0..1e4]
  float neighborDist = 15.0f;     ///< Agents further than this are ignored. [Limit: 0..1e5]
  int maxNeighbors = 10;          ///< How many of the nearest agents are avoided. [Limit: 0..kMaxNeighbors]
  float timeHorizon = 10.0f;      ///< How far ahead collisions with agents are avoided. [Limit: 1e-4..1e6]
  float timeHorizonObst = 10.0f;  ///< How far ahead collisions with obstacles are avoided. [Limit: 1e-4..1e6]
  /// Within this of its goal an agent has arrived; < 0 means `radius`. [Limit: <= 1e6]
  float goalRadius = -1.0f;

  auto operator<=>(const AgentParams&) const = default;
  bool operator==(const AgentParams&) const = default;
};

/// The pedestrian preset ("preset": "pedestrian" in scenario files): SI values for people where
/// RVO2's defaults suit its examples' units. A body 0.4 m across, Weidmann's free walking speed
/// 1.34 m/s, room to speed up to 2 m/s, ORCA looking 2 s ahead, and neighbours kept within 4 m,
/// 16 of them: enough for the density-aware speed to count a standing crowd within 1 m.
inline constexpr AgentParams kPedestrianParams{0.2f, 2.0f, 1.34f, 4.0f, 16, 2.0f, 2.0f, -1.0f};
/// The pedestrian preset's time step, s.
inline constexpr float kPedestrianTimeStep = 0.1f;

/// One field of AgentParams: its name (the scenario file's key) and its limit.
struct AgentParamField {
  std::string_view key;
  float AgentParams::*real;  ///< The field; null for the one integer field, maxNeighbors.
  Limit limit;
};

/// Every field of AgentParams, in declaration order.
inline constexpr AgentParamField kAgentParamFields[] = {
    {"radius", &AgentParams::radius, limits::kRadius},
    {"maxSpeed", &AgentParams::maxSpeed, limits::kSpeed},
    {"prefSpeed", &AgentParams::prefSpeed, limits::kSpeed},
    {"neighborDist", &AgentParams::neighborDist, limits::kNeighborDist},
    {"maxNeighbors", nullptr, limits::kNeighborCount},
    {"timeHorizon", &AgentParams::timeHorizon, limits::kTimeHorizon},
    {"timeHorizonObst", &AgentParams::timeHorizonObst, limits::kTimeHorizon},
    {"goalRadius", &AgentParams::goalRadius, limits::kGoalRadius},
};

/// Empty when `field` of `params` is within its limit; otherwise the rule and the value, e.g.
/// "must be <= 10000 (the radius limit), got 1.2e30".
std::string checkAgentParam(const AgentParams& params, const AgentParamField& field);

/// Empty when `params` is within the limits above; otherwise a sentence naming the first
/// offending field and value (non-finite values included), e.g. "radius must be >= 0, got -1".
std::string checkAgentParams(const AgentParams& params);

}  // namespace crowd
