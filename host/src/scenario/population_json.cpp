// Distributions, start times and speed zones in scenario files (population_json.hpp).
#include "scenario/population_json.hpp"

#include <algorithm>
#include <cmath>

#include "params/number_text.hpp"
#include "scenario/scenario_paths.hpp"

namespace crowd::scenario_detail {
namespace {

using nlohmann::json;

constexpr std::array<std::string_view, 4> kKinds = {"uniform", "normal", "weidmannAge", "constant"};
constexpr std::array<std::string_view, 6> kDistributionKeys = {"uniform",  "normal", "weidmannAge",
                                                               "constant", "min",    "max"};
constexpr std::array<std::string_view, 1> kQuantumKey = {"quantum"};
constexpr std::array<std::string_view, 4> kZoneKeys = {"polygon", "min", "max", "factor"};
constexpr std::array<std::string_view, 1> kPeriodicKeys = {"x"};

/// The limit of drawn key `key`, and the AgentParams field it sets (null for startTime).
struct DrawnField {
  Limit limit;
  float AgentParams::*field;
};

DrawnField drawnField(std::string_view key) {
  for (const AgentParamField& f : kAgentParamFields) {
    if (f.key == key) return DrawnField{f.limit, f.real};
  }
  return DrawnField{limits::kStartTime, nullptr};
}

/// Speeds to 1 cm/s, sizes to 5 mm: close enough for people, few enough distinct values that a
/// group's agents share a handful of parameter profiles.
double defaultQuantumOf(std::string_view key) {
  if (key == "prefSpeed" || key == "maxSpeed") return 0.01;
  if (key == "radius" || key == "goalRadius") return 0.005;
  return 0.0;
}

std::size_t streamOf(std::string_view key) {
  return static_cast<std::size_t>(std::find(kDrawnKeys.begin(), kDrawnKeys.end(), key) - kDrawnKeys.begin());
}

}  // namespace

ValueDistribution readDistribution(const JsonValueReader& values, const json& value, const std::string& path,
                                   double defaultQuantum) {
  const json& object = values.objectAt(value, path);
  values.checkKeys(object, path, {kDistributionKeys, kQuantumKey});
  ValueDistribution d;
  d.quantum = defaultQuantum;
  int kinds = 0;
  for (std::size_t k = 0; k < kKinds.size(); ++k) {
    const std::string key(kKinds[k]);
    if (!object.contains(key)) continue;
    ++kinds;
    const std::string at = childPath(path, key);
    if (key == "constant") {
      d.kind = ValueDistribution::Kind::Constant;
      d.a = d.b = values.number(object[key], at);
      continue;
    }
    const json& pair = values.arrayAt(object[key], at);
    if (pair.size() != 2) values.fail(at, "expected two numbers, got " + std::to_string(pair.size()));
    d.kind = key == "uniform"  ? ValueDistribution::Kind::Uniform
             : key == "normal" ? ValueDistribution::Kind::Normal
                               : ValueDistribution::Kind::WeidmannAge;
    d.a = values.number(pair[0], childPath(at, 0));
    d.b = values.number(pair[1], childPath(at, 1));
  }
  if (kinds != 1) {
    values.fail(path,
                "give one distribution: {\"uniform\": [low, high]}, {\"normal\": [mean, sd], \"min\": m, "
                "\"max\": M}, {\"weidmannAge\": [from, to]} or {\"constant\": x}");
  }
  if ((object.contains("min") || object.contains("max")) && d.kind != ValueDistribution::Kind::Normal) {
    values.fail(path, "\"min\" and \"max\" clip a normal's draws; other distributions keep to their range");
  }
  if (object.contains("min")) d.min = values.number(object["min"], childPath(path, "min"));
  if (object.contains("max")) d.max = values.number(object["max"], childPath(path, "max"));
  if (object.contains("quantum")) d.quantum = values.number(object["quantum"], childPath(path, "quantum"));
  if (const std::string problem = distributionProblem(d); !problem.empty()) values.fail(path, problem);
  return d;
}

json readGroupPopulation(const JsonValueReader& values, const json& object, const std::string& path,
                         std::string_view radiusKey, GroupSpec& group) {
  json plain = object;
  for (const std::string_view drawn : kDrawnKeys) {
    const std::string key(drawn == "radius" ? radiusKey : drawn);
    if (!object.contains(key)) continue;
    const std::string at = childPath(path, key);
    if (object[key].is_object()) {
      group.draws.push_back(
          DrawSpec{std::string(drawn), readDistribution(values, object[key], at, defaultQuantumOf(drawn))});
      plain.erase(key);
    } else if (drawn == "startTime") {
      group.startTime = values.floatNumber(object[key], at);
      plain.erase(key);
    }
  }
  return plain;
}

std::vector<SpeedZoneSpec> readSpeedZones(const JsonValueReader& values, const json& value) {
  const json& zones = values.arrayAt(value, "/speedZones");
  std::vector<SpeedZoneSpec> out;
  for (std::size_t z = 0; z < zones.size(); ++z) {
    const std::string path = childPath("/speedZones", z);
    const json& object = values.objectAt(zones[z], path);
    values.checkKeys(object, path, {kZoneKeys});
    values.requireKey(object, path, "factor");
    SpeedZoneSpec zone;
    zone.factor = values.floatNumber(object["factor"], path + "/factor");
    if (object.contains("polygon")) {
      if (object.contains("min") || object.contains("max"))
        values.fail(path, "has both 'polygon' and 'min'/'max'; give one shape");
      const json& vertices = values.arrayAt(object["polygon"], path + "/polygon");
      for (std::size_t v = 0; v < vertices.size(); ++v) {
        zone.polygon.push_back(values.vector2(vertices[v], childPath(path + "/polygon", v)));
      }
    } else {
      values.requireKey(object, path, "min");
      values.requireKey(object, path, "max");
      const Vec2 min = values.vector2(object["min"], path + "/min");
      const Vec2 max = values.vector2(object["max"], path + "/max");
      if (!(min.x < max.x && min.y < max.y))
        values.fail(path + "/max", "must be above min in both coordinates");
      zone.polygon = {min, Vec2(max.x, min.y), max, Vec2(min.x, max.y)};
    }
    out.push_back(std::move(zone));
  }
  return out;
}

PlacedProblem groupPopulationProblem(const GroupSpec& group) {
  if (std::string problem = limitProblem(group.startTime, limits::kStartTime); !problem.empty()) {
    return {"/startTime", problem + ", got " + formatFloat(group.startTime)};
  }
  for (const DrawSpec& draw : group.draws) {
    const std::string at = "/" + draw.key;
    if (std::find(kDrawnKeys.begin(), kDrawnKeys.end(), draw.key) == kDrawnKeys.end()) {
      return {"", "'" + draw.key + "' cannot be drawn per agent"};
    }
    if (std::string problem = distributionProblem(draw.distribution); !problem.empty()) return {at, problem};
    const Limit limit = drawnField(draw.key).limit;
    for (const double value : {draw.distribution.lowest(), draw.distribution.highest()}) {
      if (std::string problem = limitProblem(value, limit); !problem.empty()) {
        return {at, "draws " + formatNumber(value) + ", which " + problem};
      }
    }
  }
  return {};
}

PlacedProblem speedZonesProblem(const std::vector<SpeedZoneSpec>& zones) {
  for (std::size_t z = 0; z < zones.size(); ++z) {
    const std::string path = childPath("", z);
    const SpeedZoneSpec& zone = zones[z];
    if (zone.polygon.size() < 3)
      return {path + "/polygon", "needs at least 3 vertices, got " + std::to_string(zone.polygon.size())};
    for (std::size_t v = 0; v < zone.polygon.size(); ++v) {
      const float coordinates[2] = {zone.polygon[v].x, zone.polygon[v].y};
      for (std::size_t c = 0; c < 2; ++c) {
        if (std::string problem = limitProblem(coordinates[c], limits::kCoordinate); !problem.empty()) {
          return {childPath(childPath(path + "/polygon", v), c),
                  problem + ", got " + formatFloat(coordinates[c])};
        }
      }
    }
    if (std::string problem = limitProblem(zone.factor, limits::kSpeedFactor); !problem.empty()) {
      return {path + "/factor", problem + ", got " + formatFloat(zone.factor)};
    }
  }
  return {};
}

void applyDraws(const GroupSpec& group, std::uint64_t seed, std::size_t first, std::span<AgentDef> agents) {
  for (std::size_t i = 0; i < group.count; ++i) agents[first + i].startTime = group.startTime;
  for (const DrawSpec& draw : group.draws) {
    const DrawnField target = drawnField(draw.key);
    const auto stream = static_cast<std::uint32_t>(streamOf(draw.key) + 1);
    for (std::size_t i = 0; i < group.count; ++i) {
      const auto value = static_cast<float>(draw.distribution.draw(seed, first + i, stream));
      AgentDef& agent = agents[first + i];
      if (target.field == &AgentParams::prefSpeed && group.goal == GroupSpec::Goal::prefVelocity) {
        // A fixed preferred velocity carries the speed itself: its length becomes the draw.
        const float speed = length(agent.prefVelocity);
        if (speed > 0.0f) agent.prefVelocity = agent.prefVelocity * (value / speed);
      }
      if (target.field != nullptr) {
        agent.params.*target.field = value;
      } else {
        agent.startTime = value;
      }
    }
  }
}

PeriodicRange readPeriodic(const JsonValueReader& values, const json& value) {
  const json& object = values.objectAt(value, "/periodic");
  values.checkKeys(object, "/periodic", {kPeriodicKeys});
  values.requireKey(object, "/periodic", "x");
  const Vec2 ends = values.vector2(object["x"], "/periodic/x");
  return PeriodicRange{ends.x, ends.y};
}

std::string periodicProblem(const ScenarioSpec& spec) {
  const PeriodicRange& period = spec.periodicX;
  if (!period.on()) return {};
  for (const float end : {period.from, period.to}) {
    if (std::string problem = limitProblem(end, limits::kCoordinate); !problem.empty())
      return problem + ", got " + formatFloat(end);
  }
  if (!(period.to > period.from)) {
    return "must run from a smaller x to a larger one, got [" + formatFloat(period.from) + ", " +
           formatFloat(period.to) + "]";
  }
  // Anyone near one end sees at most one image of anyone near the other (kernels/periodic.hpp).
  float reach = 0.0f;
  std::string whose;
  const auto consider = [&](const AgentParams& params, const std::string& path) {
    if (params.neighborDist > reach) reach = params.neighborDist, whose = path;
  };
  for (std::size_t i = 0; i < spec.agents.size(); ++i)
    consider(spec.agents[i].params, childPath("/agents", i));
  for (std::size_t g = 0; g < spec.groups.size(); ++g)
    consider(spec.groups[g].params, childPath("/groups", g));
  if (!(period.to - period.from > 2.0f * reach)) {
    return "the period " + formatFloat(period.to - period.from) +
           " must be longer than twice the neighborDist " + formatFloat(reach) + " of " + whose;
  }
  return {};
}

}  // namespace crowd::scenario_detail
