// Options several crowdsim commands share, declared once so that they read and check alike:
// the agent count of a built-in, CPU threads, and the compute backend (by the library's names,
// crowd::parseBackendKind), with the check that a named GPU is there.
#pragma once

#include <omp.h>

#include <cstddef>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include <crowd/limits.hpp>
#include <crowd/simulator_config.hpp>

#include "strict_integer.hpp"

namespace crowd::cli {

/// --agents N: the agent count of a built-in scenario, 1 to limits::kMaxScenarioAgents.
inline void addAgentsOption(CLI::App& command, std::optional<std::size_t>& agents) {
  command.add_option("--agents", agents, "Agent count for a built-in scenario")
      ->check(kWholeNumber)
      ->check(CLI::Range(std::size_t{1}, static_cast<std::size_t>(limits::kMaxScenarioAgents)));
}

/// --threads N: CPU threads; 0 lets the step choose (SimulatorConfig::threads).
inline void addThreadsOption(CLI::App& command, int& threads) {
  command
      .add_option("--threads", threads,
                  "CPU threads (0: up to all cores, as many as run fastest, timed as the run goes: "
                  "fewer on a busy machine)")
      ->check(kWholeNumber)
      ->check(CLI::Range(0, kMaxThreads))
      // Routing a scenario's map runs while it loads, before any simulator exists, on OpenMP's
      // default thread count: a count given here is that default for the whole command.
      ->each([](const std::string& text) {
        const int count = std::stoi(text);
        if (count > 0) omp_set_num_threads(count);
      });
}

/// The backend names an option accepts: `auto` only where the choice may be left to the machine.
inline std::vector<std::string> backendNames(bool withAuto) {
  std::vector<std::string> names;
  for (const BackendKind kind : {BackendKind::Auto, BackendKind::Cpu, BackendKind::Cuda}) {
    if (withAuto || kind != BackendKind::Auto) names.emplace_back(backendKindName(kind));
  }
  return names;
}

/// --backend auto|cpu|cuda (default auto).
inline void addBackendOption(CLI::App& command, std::string& backend) {
  command.add_option("--backend", backend, "Compute backend")
      ->check(CLI::IsMember(backendNames(true)))
      ->capture_default_str();
}

/// The backend an option's text names (checked by addBackendOption's check already).
inline BackendKind backendNamed(const std::string& name) {
  const std::optional<BackendKind> kind = parseBackendKind(name);
  if (!kind) throw std::invalid_argument("--backend " + name + ": expected auto, cpu or cuda");
  return *kind;
}

/// Throws std::invalid_argument when `backend` is the GPU and no usable one is there, saying
/// why; commands call it before anything is loaded or written.
inline void requireBackend(BackendKind backend) {
  std::string why;
  if (backend == BackendKind::Cuda && !cudaBackendAvailable(&why)) {
    throw std::invalid_argument("--backend cuda: " + why + "; use --backend cpu or auto");
  }
}

}  // namespace crowd::cli
