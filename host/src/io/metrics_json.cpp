// Run metrics as a JSON document (RunMetrics::toJson, crowd/metrics.hpp): what `crowdsim run
// --metrics` writes. Times and distances that do not exist (no arrival, no follower) are null.
#include <cmath>
#include <string>

#include <nlohmann/json.hpp>

#include <crowd/metrics.hpp>
#include <crowd/version.hpp>

namespace crowd {

namespace {

// One key per phase, plus "total".
nlohmann::json phaseTimesJson(const PhaseTimes& times) {
  nlohmann::json doc;
  for (int p = 0; p < kPhaseCount; ++p) doc[kPhaseNames[p]] = times.ms[p];
  doc["total"] = times.total();
  return doc;
}

}  // namespace

std::string RunMetrics::toJson(int indent) const {
  using nlohmann::json;
  auto finiteOrNull = [](double v) { return std::isfinite(v) ? json(v) : json(nullptr); };
  // Times, distances and shares are never negative; -1 stands for "none" and is written null.
  auto timeOrNull = [](double v) { return v < 0 ? json(nullptr) : json(v); };
  const PhaseTimes mean = meanMsPerStep();
  json doc;
  doc["steps"] = steps;
  doc["agents"] = initialAgents;
  doc["agentsWithGoal"] = agentsWithGoal;
  doc["arrived"] = arrived;
  doc["firstArrivalTime"] = timeOrNull(firstArrivalTime);
  doc["lastArrivalTime"] = timeOrNull(lastArrivalTime);
  doc["meanArrivalTime"] = timeOrNull(meanArrivalTime);
  doc["collisions"] = collisions;
  doc["obstaclePenetrations"] = penetrations;
  doc["minSeparationRatio"] = finiteOrNull(minSeparationRatio);
  doc["meanSpeed"] = meanSpeed;
  doc["maxSpeedRatio"] = maxSpeedRatio;
  doc["speedClamps"] = speedClamps;
  json captureDoc = json::object();
  for (int k = 0; k < kPursuitKindCount; ++k) {
    const CaptureStats& c = captures[static_cast<std::size_t>(k)];
    captureDoc[kPursuitNames[k]] = {{"pursuers", c.pursuers},
                                    {"caught", c.caught},
                                    {"meanTime", timeOrNull(c.meanTime)},
                                    {"maxTime", timeOrNull(c.maxTime)}};
  }
  doc["captures"] = std::move(captureDoc);
  doc["pathFollowing"] = {{"followers", paths.followers},
                          {"agentSteps", paths.agentSteps},
                          {"meanDistance", timeOrNull(paths.meanDistance)},
                          {"withinRadius", timeOrNull(paths.withinRadius)}};
  if (planners.count > 0) {  // Only runs with planners say anything about them.
    json agentList = json::array();
    for (const PlannerAgentStats& a : planners.agents) {
      agentList.push_back({{"id", a.id.index},
                           {"steps", a.steps},
                           {"meanDeviation", timeOrNull(a.meanDeviation)},
                           {"maxDeviation", timeOrNull(a.maxDeviation)},
                           {"arrived", a.arrived},
                           {"arrivalTime", timeOrNull(a.arrivalTime)}});
    }
    doc["planners"] = {{"count", planners.count},
                       {"agentSteps", planners.agentSteps},
                       {"meanDeviation", timeOrNull(planners.meanDeviation)},
                       {"maxDeviation", timeOrNull(planners.maxDeviation)},
                       {"arrived", planners.arrived},
                       {"agents", std::move(agentList)}};
  }
  doc["unreachable"] = unreachable;
  if (navigation) {
    doc["navigation"] = {{"agents", navigation->agents},           {"planned", navigation->planned},
                         {"replans", navigation->replans},         {"exitChanges", navigation->exitChanges},
                         {"unreachable", navigation->unreachable}, {"routePoints", navigation->routePoints},
                         {"seconds", navigation->seconds}};
  }
  doc["msPerStep"] = phaseTimesJson(mean);
  json list = json::array();
  for (const Arrival& a : arrivals) list.push_back({{"agent", a.id.index}, {"step", a.step}});
  doc["arrivals"] = std::move(list);
  return doc.dump(indent, ' ', false,
                  nlohmann::json::error_handler_t::replace);  // A non-UTF-8 file name too.
}

std::string runMetricsJson(const RunMetrics& metrics, const RunFacts& facts, int indent) {
  nlohmann::json doc = nlohmann::json::parse(metrics.toJson());
  doc["scenario"] = facts.scenario;
  doc["seed"] = facts.seed;
  doc["version"] = version();
  doc["gitRevision"] = gitRevision();
  doc["warnings"] = facts.warnings;
  doc["dimensions"] = facts.dimensions;
  doc["backend"] = facts.backend;
  doc["timeStep"] = facts.timeStep;
  return doc.dump(indent, ' ', false, nlohmann::json::error_handler_t::replace);
}

}  // namespace crowd
