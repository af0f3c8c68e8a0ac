// Who the people are, in scenario files: distributions in place of numbers for a group's
// parameters and premovement times ("prefSpeed": {"normal": [1.34, 0.26], "min": 0.5, "max": 2}),
// start times of listed agents, and the top-level "speedZones". The reader checks shapes; the
// validator asks populationProblem for values, so that a spec built in code is checked too;
// expandScenario draws each agent's values with applyDraws.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include <crowd/scenario_spec.hpp>

#include "scenario/behavior_json.hpp"
#include "scenario/json_value_reader.hpp"

namespace crowd::scenario_detail {

/// The keys a group may draw per agent. Each key's random stream is its place here, so new keys
/// go at the end. "radius" is a circle group's "agentRadius" in the file.
inline constexpr std::array<std::string_view, 5> kDrawnKeys = {"prefSpeed", "maxSpeed", "radius",
                                                               "goalRadius", "startTime"};

/// {"uniform": [low, high]}, {"normal": [mean, sd], "min": m, "max": M} or {"weidmannAge": [from,
/// to]} (walking speed by age), each with an optional "quantum" the draws are rounded to.
/// `defaultQuantum` applies where the file gives none.
ValueDistribution readDistribution(const JsonValueReader& values, const nlohmann::json& value,
                                   const std::string& path, double defaultQuantum);

/// Reads the group's "startTime" and every drawn key whose value is an object (a distribution)
/// into `group`; returns `object` without those, for the reader of plain parameters.
nlohmann::json readGroupPopulation(const JsonValueReader& values, const nlohmann::json& object,
                                   const std::string& path, std::string_view radiusKey, GroupSpec& group);

/// "speedZones": [{"polygon": [[x, y], ...], "factor": f} or {"min": [x, y], "max": [x, y], "factor": f}].
std::vector<SpeedZoneSpec> readSpeedZones(const JsonValueReader& values, const nlohmann::json& value);

/// The first problem with a group's start time and draws, placed below the group ("/startTime",
/// "/prefSpeed"): a distribution that is not well formed, or one whose range leaves the field's
/// limit.
PlacedProblem groupPopulationProblem(const GroupSpec& group);
/// The first problem with the speed zones, placed below "/speedZones".
PlacedProblem speedZonesProblem(const std::vector<SpeedZoneSpec>& zones);

/// "periodic": {"x": [from, to]}, where the world repeats along x.
PeriodicRange readPeriodic(const JsonValueReader& values, const nlohmann::json& value);
/// What is wrong with the spec's periodic range (empty: nothing, or none given): its ends, or a
/// period no longer than twice some agent's or group's neighborDist.
std::string periodicProblem(const ScenarioSpec& spec);

/// Gives the agents made by `group` (agents[first .. first + group.count)) their drawn values:
/// agent number k's draw of key i is ValueDistribution::draw(seed, k, i + 1). A drawn prefSpeed also
/// sets the length of a group's fixed preferred velocity.
void applyDraws(const GroupSpec& group, std::uint64_t seed, std::size_t first, std::span<AgentDef> agents);

}  // namespace crowd::scenario_detail
