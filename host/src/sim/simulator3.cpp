// The 3D simulator: BasicSimulator<Vec3> with the behaviours a 3D world can use.
#include <stdexcept>
#include <string>

#include <crowd/simulator3.hpp>

namespace crowd {

Simulator3::Simulator3(const SimulatorConfig& config) : BasicSimulator<Vec3>(config) {}

void Simulator3::requireUsable(const Behavior& behavior) {
  if (const std::string problem = checkBehavior3(behavior); !problem.empty())
    throw std::invalid_argument(problem);
}

}  // namespace crowd
