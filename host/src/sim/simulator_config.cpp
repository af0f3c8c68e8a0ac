// The whole-simulation settings (crowd/simulator_config.hpp): their limits, and the backends by
// name and by availability.
#include <cmath>
#include <stdexcept>
#include <string>

#include <crowd/limits.hpp>
#include <crowd/simulator_config.hpp>

#include "sim/step/executor.hpp"

namespace crowd {

std::optional<BackendKind> parseBackendKind(std::string_view name) {
  for (const BackendKind kind : {BackendKind::Auto, BackendKind::Cpu, BackendKind::Cuda}) {
    if (name == backendKindName(kind)) return kind;
  }
  return std::nullopt;
}

const char* backendKindName(BackendKind kind) {
  switch (kind) {
    case BackendKind::Cpu:
      return "cpu";
    case BackendKind::Cuda:
      return "cuda";
    case BackendKind::Auto:
      break;
  }
  return "auto";
}

void checkConfig(const SimulatorConfig& c) {
  if (const std::string problem = checkLimit(c.timeStep, limits::kTimeStep, "timeStep"); !problem.empty()) {
    throw std::invalid_argument(problem);
  }
  if (c.threads < 0 || c.threads > kMaxThreads) {
    throw std::invalid_argument("threads must be 0 to " + std::to_string(kMaxThreads) + ", got " +
                                std::to_string(c.threads));
  }
  if (!std::isfinite(c.origin.x) || !std::isfinite(c.origin.y)) {
    throw std::invalid_argument("origin must be finite, got (" + std::to_string(c.origin.x) + ", " +
                                std::to_string(c.origin.y) + ")");
  }
  if (!std::isfinite(c.cellSize) || c.cellSize < 0.0f) {
    throw std::invalid_argument("cellSize must be a finite number >= 0, got " + std::to_string(c.cellSize));
  }
  const PeriodicRange& period = c.periodicX;
  if (period.on() && !(std::isfinite(period.from) && std::isfinite(period.to) && period.to > period.from)) {
    throw std::invalid_argument("periodicX must run from a finite x to a larger finite x, got " +
                                std::to_string(period.from) + " to " + std::to_string(period.to));
  }
}

bool cudaBackendAvailable(std::string* why) {
#if defined(CROWD_WITH_CUDA)
  const std::string problem = cudaDeviceProblem();
#else
  const std::string problem = "this build has no CUDA backend (it was configured without nvcc)";
#endif
  if (why != nullptr) *why = problem;
  return problem.empty();
}

}  // namespace crowd
