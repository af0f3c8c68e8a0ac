// Wall-clock time spent in each phase of a step, indexed by the phase list (kernels/phase.hpp).
#pragma once

#include <array>

#include <crowd/kernels/phase.hpp>

namespace crowd {

/// Milliseconds per phase. `orca` includes the obstacle-edge range query, which runs per agent
/// just before its half-planes are built.
struct PhaseTimes {
  std::array<double, kPhaseCount> ms{};

  double& operator[](Phase p) { return ms[static_cast<int>(p)]; }
  double operator[](Phase p) const { return ms[static_cast<int>(p)]; }

  double total() const {
    double sum = 0;
    for (double t : ms) sum += t;
    return sum;
  }
  PhaseTimes& operator+=(const PhaseTimes& o) {
    for (int p = 0; p < kPhaseCount; ++p) ms[p] += o.ms[p];
    return *this;
  }
  /// Every phase divided by `divisor` (a mean over steps, say).
  PhaseTimes operator/(double divisor) const {
    PhaseTimes out = *this;
    for (double& t : out.ms) t /= divisor;
    return out;
  }
};

}  // namespace crowd
