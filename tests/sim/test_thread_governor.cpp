// The thread governor (sim/cpu/thread_governor.hpp) against machines made up of step costs: it
// takes all the cores where they pay, stays on one thread beside a busy process while its
// trials cost a few percent, follows a load that comes and goes, is not fooled by a favourite
// whose steps vary, waits before its first trial; and a simulator left to choose its threads
// gives the state a fixed count gives.
#include <cmath>
#include <functional>

#include <gtest/gtest.h>

#include <crowd/scenario.hpp>
#include <crowd/simulator.hpp>

#include "sim/cpu/thread_governor.hpp"

namespace crowd {
namespace {

struct Driven {
  double seconds = 0;       // All steps.
  double onOthers = 0;      // Steps not on `expected` threads.
  int stepsOnExpected = 0;  // Steps on `expected` threads.
};

/// Steps `steps` times with `agents` agents, each step costing what `cost(threads, step)` says
/// (seconds); counts how the steps fell against `expected` threads.
Driven drive(ThreadGovernor& governor, int most, int steps, long long agents,
             const std::function<double(int, int)>& cost, int expected, int from = 0) {
  Driven run;
  for (int s = from; s < from + steps; ++s) {
    const int threads = governor.choose(most);
    const double seconds = cost(threads, s);
    governor.record(threads, seconds, agents);
    run.seconds += seconds;
    if (threads == expected) {
      ++run.stepsOnExpected;
    } else {
      run.onOthers += seconds;
    }
  }
  return run;
}

// Idle: each step is 20 ms on one thread, and n threads share it with 5% lost.
double idle(int threads, int) {
  return threads == 1 ? 0.020 : 0.021 / threads;
}
// Beside a busy process: more than one thread waits for cores, 40 times slower.
double busy(int threads, int) {
  return threads == 1 ? 0.020 : 0.8;
}

TEST(ThreadGovernor, TakesAllTheCoresWhereTheyPay) {
  ThreadGovernor governor;
  const Driven run = drive(governor, 8, 2000, 10000, idle, 8);
  EXPECT_EQ(governor.favourite(), 8);
  // The first 0.2 s on one thread, then trials of 8 and 4 threads; later trials are rare.
  EXPECT_GT(run.stepsOnExpected, 1900);
  // The time lost against 8 threads all along: the first 0.2 s, and a few percent of trials.
  EXPECT_LT(run.seconds, 1.1 * 2000 * idle(8, 0) + 0.25);
}

TEST(ThreadGovernor, StaysOnOneThreadBesideABusyProcessAndItsTrialsCostAFewPercent) {
  ThreadGovernor governor;
  const Driven run = drive(governor, 2, 5000, 10000, busy, 1);
  EXPECT_EQ(governor.favourite(), 1);
  // Each lost trial (one step of 0.8 s: it is clearly worse) buys 30 times its cost in quiet.
  EXPECT_LT(run.onOthers, 0.05 * run.seconds);
}

TEST(ThreadGovernor, FollowsALoadThatComesAndGoes) {
  ThreadGovernor governor;
  drive(governor, 2, 500, 10000, idle, 2);
  ASSERT_EQ(governor.favourite(), 2);
  // A busy process starts: the favourite's own steps slow, and the next trial of one thread wins.
  drive(governor, 2, 100, 10000, busy, 1, 500);
  EXPECT_EQ(governor.favourite(), 1);
  // It ends: a trial of two threads, within the longest interval and quiet, wins it back.
  drive(governor, 2, 2 * ThreadGovernor::kMaxTrialInterval, 10000, idle, 2, 600);
  EXPECT_EQ(governor.favourite(), 2);
}

TEST(ThreadGovernor, AFavouriteWhoseStepsVaryIsJudgedByItsMedian) {
  // Every fifth step rebuilds something, twenty times the others, on any count; two threads
  // are 1.5 times slower than one all along (a machine whose second core is a slow one).
  const auto spiky = [](int threads, int step) {
    const double base = threads == 1 ? 0.010 : 0.015;
    return step % 5 == 0 ? 20 * base : base;
  };
  ThreadGovernor governor;
  const Driven run = drive(governor, 2, 3000, 10000, spiky, 1);
  EXPECT_EQ(governor.favourite(), 1);
  EXPECT_GT(run.stepsOnExpected, 2900);
}

TEST(ThreadGovernor, WaitsBeforeItsFirstTrialAndNeverTriesOnOneCore) {
  ThreadGovernor governor;
  // 1 ms steps: 0.2 s is 200 steps on one thread before anything else is tried.
  int first = -1;
  for (int s = 0; s < 400 && first < 0; ++s) {
    const int threads = governor.choose(2);
    if (threads != 1) first = s;
    governor.record(threads, threads == 1 ? 0.001 : 0.0006, 1000);
  }
  EXPECT_GE(first, 200);
  ThreadGovernor single;
  for (int s = 0; s < 100; ++s) {
    EXPECT_EQ(single.choose(1), 1);
    single.record(1, 0.01, 1000);
  }
}

TEST(ThreadGovernor, ASimulatorLeftToChooseGivesTheStateOfAFixedCount) {
  // Whatever counts the governor tries along the way, every step is the same state as on one
  // thread (the default run's steps are short: it tries two threads after 0.2 s of them).
  const Scenario scenario = builtinScenario("random", 3000, 5);
  Simulator chosen = makeSimulator(scenario, 0);
  Simulator one = makeSimulator(scenario, 1);
  for (int s = 0; s < 400; ++s) {
    chosen.step();
    one.step();
  }
  EXPECT_EQ(chosen.stateHash(), one.stateHash());
  EXPECT_GE(chosen.lastStepThreads(), 1);
  EXPECT_EQ(one.lastStepThreads(), 1);
}

}  // namespace
}  // namespace crowd
