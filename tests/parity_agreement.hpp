// How a backend's new velocities agree with a reference simulator's over many agent-steps: the
// planar parity tests (test_reference_parity.cpp) and the 3D ones (test_simulator3.cpp) count
// and report alike.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdio>

namespace crowd {

struct Agreement {
  std::size_t agents = 0;
  std::size_t within1e4 = 0;      // Velocity equal to 1e-4.
  std::size_t equallyGood = 0;    // Infeasible program: a different point, as good an optimum.
  std::size_t disagreements = 0;  // Neither.
  double worst = 0;               // Largest velocity difference of all.

  void operator+=(const Agreement& o) {
    agents += o.agents;
    within1e4 += o.within1e4;
    equallyGood += o.equallyGood;
    disagreements += o.disagreements;
    worst = std::max(worst, o.worst);
  }
  double exactFraction() const { return agents ? static_cast<double>(within1e4) / static_cast<double>(agents) : 1.0; }
};

/// One line of figures for the test log, e.g. "[ parity ] random states: 24000 agent-steps, ...".
inline void report(const char* tag, const char* what, const Agreement& a) {
  std::printf("[ %s ] %s: %zu agent-steps, %.3f%% within 1e-4, %zu equally good optima of an infeasible program, "
              "%zu disagreements, largest difference %.3g\n",
              tag, what, a.agents, 100.0 * a.exactFraction(), a.equallyGood, a.disagreements, a.worst);
}

}  // namespace crowd
