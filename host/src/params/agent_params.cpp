#include <string>

#include <crowd/agent_params.hpp>

#include "params/number_text.hpp"

namespace crowd {

std::string checkAgentParam(const AgentParams& params, const AgentParamField& field) {
  if (field.real == nullptr) {
    const std::string problem = limitProblem(params.maxNeighbors, field.limit);
    return problem.empty() ? problem : problem + ", got " + std::to_string(params.maxNeighbors);
  }
  const float value = params.*field.real;
  const std::string problem = limitProblem(value, field.limit);
  return problem.empty() ? problem : problem + ", got " + formatFloat(value);
}

std::string checkAgentParams(const AgentParams& params) {
  for (const AgentParamField& field : kAgentParamFields) {
    if (const std::string problem = checkAgentParam(params, field); !problem.empty()) {
      return std::string(field.key) + " " + problem;
    }
  }
  return {};
}

}  // namespace crowd
