#include <crowd/agent_params.hpp>

#include <cmath>
#include <sstream>
#include <string>

namespace crowd {
namespace {

std::string describe(const char* field, const char* rule, double value) {
  std::ostringstream out;
  out << field << " must be " << rule << ", got " << value;
  return out.str();
}

}  // namespace

std::string checkAgentParams(const AgentParams& p) {
  struct FloatRule {
    const char* name;
    float value;
    bool positive;  // > 0 rather than >= 0
  };
  const FloatRule rules[] = {
      {"radius", p.radius, false},          {"maxSpeed", p.maxSpeed, false},
      {"prefSpeed", p.prefSpeed, false},    {"neighborDist", p.neighborDist, false},
      {"timeHorizon", p.timeHorizon, true}, {"timeHorizonObst", p.timeHorizonObst, true},
  };
  for (const FloatRule& rule : rules) {
    if (!std::isfinite(rule.value)) return describe(rule.name, "a finite number", rule.value);
    if (rule.positive ? !(rule.value > 0.0f) : !(rule.value >= 0.0f)) {
      return describe(rule.name, rule.positive ? "> 0" : ">= 0", rule.value);
    }
  }
  if (p.maxNeighbors < 0 || p.maxNeighbors > kMaxNeighbors) {
    return describe("maxNeighbors", ("between 0 and " + std::to_string(kMaxNeighbors)).c_str(), p.maxNeighbors);
  }
  // A negative goal radius means "use the radius"; any finite value is accepted.
  if (!std::isfinite(p.goalRadius)) return describe("goalRadius", "a finite number", p.goalRadius);
  return {};
}

}  // namespace crowd
