// Settings that are legal but lead a run astray, said before it starts: horizons shorter than
// a step, steps longer than a body near walls, piles of agents denser than their neighbour
// lists can sort out, behaviour parameters that none of an agent's behaviours reads, pursuers
// without a target; and scenarios too large for the machine's memory, refused before they are
// generated.
#pragma once

#include <cstdint>
#include <string>

#include <crowd/scenario.hpp>
#include <crowd/scenario3.hpp>

namespace crowd {

/// Appends warnings for dangerous settings to scenario.warnings.
void addRiskWarnings(Scenario& scenario);

/// The one of them a 3D world has: a pile of agents denser than a neighbour list holds, with the
/// pair tests a step it costs.
void addPileWarning(Scenario3& scenario);

/// Bytes a run holds per agent, about: the scenario's agent definition and everything the
/// simulator keeps (measured: under 300 bytes at a million agents).
std::uint64_t bytesPerAgentEstimate();

/// The same for a 3D world (measured: about 320 bytes at 100,000 agents, beside the scenario's).
std::uint64_t bytesPerAgentEstimate3();

/// Throws ScenarioError, naming `source`, when `agents` agents of `bytesPerAgent` each will not
/// fit in the memory this machine has available, with the estimate and what is available. Does
/// nothing where the available memory cannot be read.
void checkMemoryFor(std::uint64_t agents, const std::string& source,
                    std::uint64_t bytesPerAgent = bytesPerAgentEstimate());

}  // namespace crowd
