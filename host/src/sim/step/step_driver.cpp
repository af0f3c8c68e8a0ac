#include "sim/step/step_driver.hpp"

#include <algorithm>

namespace crowd {

template <class Vector>
StepViewOf<Vector> makeStepView(const StepRequestOf<Vector>& request, const WorkingArraysOf<Vector>& work,
                                float nearThresholdSq) {
  StepViewOf<Vector> view{};
  view.agents = work.agents;
  view.count = work.count;
  view.cells = work.cells;
  view.terms = work.terms;
  view.steering = work.steering;
  view.state = work.state;
  view.neighbours = work.neighbours;
  view.newVelocity = work.newVelocity;
  view.lists = work.lists;
  view.world = work.world;
  view.obstacles = work.world.obstacles();
  view.paths = work.world.paths();
  view.lines = work.world.lines();
  view.circles = work.world.circles;
  view.time = static_cast<float>(request.time);
  view.timeStep = request.timeStep;
  view.invTimeStep = 1.0f / request.timeStep;
  view.nearThresholdSq = nearThresholdSq;
  view.jitter = request.jitter;
  view.repairRvo2 = request.repairRvo2;
  view.seed = request.seed;
  view.step = request.step;
  view.periodic = request.periodic;
  return view;
}

template <class Vector>
StepReportOf<Vector> StepDriverOf<Vector>::step(const StepRequestOf<Vector>& request) {
  StepReportOf<Vector> report;
  ExecutorOf<Vector>& executor = *executor_;
  try {
    const int n = executor.begin(request);
    if (n == 0) return report;
    const WorkingArraysOf<Vector> work = executor.arrange(request, cellSize_, report.times);
    const StepTally tally = executor.runPhases(makeStepView(request, work, cellSize_.nearThresholdSq()),
                                               request.profiles, report.times);
    const double agents = static_cast<double>(n);
    report.candidatesPerAgent = static_cast<double>(tally.candidates) / agents;
    report.orcaLinesPerAgent = static_cast<double>(tally.orcaLines) / agents;
    report.speedClamps = tally.speedClamps;
    report.planCandidates = tally.planCandidates;
    cellSize_.observe(n, tally.rangeSum);
    if (tally.nonFinite > 0) {
      report.nonFinite = executor.firstNonFinite();
      executor.rollBack();
      return report;
    }
    executor.accept(tally);
    if (request.steering != nullptr) request.steering->flip();
    if (tally.arrivals > 0) {
      report.arrived = executor.arrivals();
      std::sort(report.arrived.begin(), report.arrived.end());
    }
    executor.finishTimes(report.times);
  } catch (...) {
    executor.stepFailed();
    throw;
  }
  return report;
}

template StepViewOf<Vec2> makeStepView(const StepRequestOf<Vec2>&, const WorkingArraysOf<Vec2>&, float);
template StepViewOf<Vec3> makeStepView(const StepRequestOf<Vec3>&, const WorkingArraysOf<Vec3>&, float);
template class StepDriverOf<Vec2>;
template class StepDriverOf<Vec3>;

}  // namespace crowd
