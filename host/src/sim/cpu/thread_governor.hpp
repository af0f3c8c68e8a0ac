// How many threads a step runs on when the caller leaves it to the library (threads = 0).
//
// A step is a handful of parallel loops, each ending in a barrier. On an idle machine every
// thread has a core and the loops share the work. On a busy one (a laptop building, a shared
// server, a CI runner) a thread may wait for a core while the others spin in the barrier, and
// each loop then takes a scheduler's time slice instead of microseconds: beside one busy process
// a 3,814-step run took 3.0 s on two threads against 0.85 s on one. Which count is fastest
// depends on the crowd, the machine and the load, and the load changes, so the governor
// measures. It runs the step on its favourite count (one thread for the first kFirstTrialAfter
// seconds of steps, and at least half of kRecentSteps steps) and now and then
// tries another candidate (all the cores, half as many, ..., 1) for a few steps: a trial that
// beats the favourite's recent steps makes it the favourite. A trial ends at its first step when
// that is clearly worse (kClearLoss times the favourite's median), and a lost trial is followed by twice as
// many steps without one (up to kMaxTrialInterval) and by kQuietFactor times its cost of the favourite's
// running time, so that trials cost a few percent however badly they lose. Steps vary (a grid rebuilt one
// step, reused the next; a planner's replan), so trials and the favourite are compared by their medians over
// several steps. Results never depend
// on any of it: a step gives the same state on any thread count.
#pragma once

#include <cstddef>
#include <vector>

namespace crowd {

class ThreadGovernor {
 public:
  static constexpr int kTrialSteps = 4;
  static constexpr std::size_t kRecentSteps = 8;  // The favourite's steps a trial is judged against.
  static constexpr double kClearLoss = 3.0;       // A trial step this many times the favourite's ends it.
  static constexpr int kMinTrialInterval = 8;
  static constexpr int kMaxTrialInterval = 1024;
  static constexpr double kQuietFactor = 30.0;
  /// Seconds of steps on one thread before the first trial: a shorter run has too little work to
  /// share for a trial, which may cost a few scheduler time slices, to pay for itself.
  static constexpr double kFirstTrialAfter = 0.2;

  /// The threads to run the next step on, given the most it may use.
  int choose(int most);
  /// How long the step run on `threads` (as chosen) took, in seconds, for `agents` agents.
  void record(int threads, double seconds, long long agents);

  /// The count it runs on outside trials.
  int favourite() const { return candidates_.empty() ? 1 : candidates_[favourite_].threads; }

 private:
  struct Candidate {
    int threads;
    bool warmed = false;  ///< Has run a step (its first, which sets up memory, is not judged).
  };
  void reset(int most);
  void startTrial();
  void endTrial(bool won, double seconds);
  static double median(std::vector<double> costs);

  std::vector<Candidate> candidates_;  // All the cores, then half as many, ..., 1.
  int most_ = 0;
  int favourite_ = 0;
  std::vector<double> recent_;      // The favourite's last steps, seconds per agent (warm-up not).
  int trial_ = -1;                  // The candidate on trial; -1: none.
  std::vector<double> trialCosts_;  // Its judged steps, seconds per agent.
  double trialSeconds_ = 0.0;       // Its steps' running time, warm-up included.
  int next_ = 0;                    // The candidate to try next.
  int stepsToTrial_ = 0;
  double quietSeconds_ = 0.0;  // Favourite's running time still owed before the next trial.
  int interval_ = kMinTrialInterval;
};

}  // namespace crowd
