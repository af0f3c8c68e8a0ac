// `--model` (model_override.hpp).
#include "model_override.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include <crowd/motion_model.hpp>

namespace crowd::cli {

std::vector<std::string> modelOverrideNames() {
  std::vector<std::string> names;
  for (const char* name : kAvoidanceModeNames) names.emplace_back(name);
  names.emplace_back("orca-density");
  return names;
}

void overrideModel(Scenario& scenario, const std::string& name) {
  const bool density = name == "orca-density";
  const std::optional<AvoidanceMode> model = density ? AvoidanceMode::Orca : motionModelNamed(name);
  if (!model) throw std::invalid_argument("unknown model '" + name + "'");
  for (AgentDef& agent : scenario.agents) {
    agent.behavior.avoidance = *model;
    agent.behavior.model.densitySpeed = density;
    if (density) {
      const float radius = agent.behavior.model.densityRadius;
      agent.params.maxNeighbors =
          std::max(agent.params.maxNeighbors, densitySpeedNeighbors(agent.behavior.model));
      agent.params.neighborDist = std::max(agent.params.neighborDist, radius);
    }
  }
  if (*model == AvoidanceMode::SocialForce && scenario.timeStep > 0.01f) {
    // The same simulated time in shorter steps.
    scenario.steps =
        static_cast<std::int64_t>(std::ceil(static_cast<double>(scenario.steps) * scenario.timeStep / 0.01));
    scenario.timeStep = 0.01f;
  }
}

}  // namespace crowd::cli
