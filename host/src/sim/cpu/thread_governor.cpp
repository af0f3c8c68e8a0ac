#include "sim/cpu/thread_governor.hpp"

#include <algorithm>

namespace crowd {

void ThreadGovernor::reset(int most) {
  most_ = most;
  candidates_.clear();
  for (int t = most; t > 1; t /= 2) candidates_.push_back(Candidate{t});
  candidates_.push_back(Candidate{1});
  // One thread first: it cannot wait for a core, so it is never the disaster another count
  // can be on a busy machine; the others are tried as soon as its cost is known.
  favourite_ = static_cast<int>(candidates_.size()) - 1;
  recent_.clear();
  trial_ = -1;
  next_ = 0;
  stepsToTrial_ = 0;
  quietSeconds_ = kFirstTrialAfter;
  interval_ = kMinTrialInterval;
}

int ThreadGovernor::choose(int most) {
  most = std::max(most, 1);
  if (most != most_) reset(most);
  if (trial_ < 0 && candidates_.size() > 1 && recent_.size() >= kRecentSteps / 2 && stepsToTrial_ <= 0 &&
      quietSeconds_ <= 0.0) {
    startTrial();
  }
  return candidates_[trial_ >= 0 ? trial_ : favourite_].threads;
}

void ThreadGovernor::startTrial() {
  if (next_ == favourite_) next_ = (next_ + 1) % static_cast<int>(candidates_.size());
  trial_ = next_;
  next_ = (next_ + 1) % static_cast<int>(candidates_.size());
  trialCosts_.clear();
  trialSeconds_ = 0.0;
}

double ThreadGovernor::median(std::vector<double> costs) {
  std::sort(costs.begin(), costs.end());
  const std::size_t n = costs.size();
  return n == 0 ? 0.0 : 0.5 * (costs[(n - 1) / 2] + costs[n / 2]);
}

void ThreadGovernor::record(int threads, double seconds, long long agents) {
  if (candidates_.empty() || !(seconds >= 0.0)) return;
  const int index = trial_ >= 0 ? trial_ : favourite_;
  if (candidates_[index].threads != threads) return;  // Not the step it chose.
  const double cost = seconds / static_cast<double>(std::max(agents, 1LL));
  Candidate& c = candidates_[index];
  const bool warmUp = !c.warmed;
  c.warmed = true;
  if (trial_ < 0) {
    if (warmUp) return;
    // The last few steps, whose median the trials are judged against: one slow step (a page
    // fault, a planner's replan, another process's burst) does not hand the favour to a worse
    // count, and the crowd's own changes are followed.
    if (recent_.size() == kRecentSteps) recent_.erase(recent_.begin());
    recent_.push_back(cost);
    quietSeconds_ -= seconds;
    if (stepsToTrial_ > 0) --stepsToTrial_;
    return;
  }
  trialSeconds_ += seconds;
  const double favourite = median(recent_);
  if (cost >= kClearLoss * favourite && !warmUp) {
    endTrial(false, trialSeconds_);  // One step this slow says enough.
    return;
  }
  if (warmUp) {
    // A warm-up this slow says enough too, unless the favourite's own steps vary as much.
    if (cost >= kClearLoss * *std::max_element(recent_.begin(), recent_.end()))
      endTrial(false, trialSeconds_);
    return;
  }
  trialCosts_.push_back(cost);
  if (static_cast<int>(trialCosts_.size()) < kTrialSteps) return;
  const bool won = median(trialCosts_) < favourite;
  if (won) recent_ = trialCosts_;  // The new favourite's figures start from its trial.
  endTrial(won, trialSeconds_);
}

void ThreadGovernor::endTrial(bool won, double seconds) {
  if (won) {
    favourite_ = trial_;
    interval_ = kMinTrialInterval;
    quietSeconds_ = 0.0;
  } else {
    interval_ = std::min(2 * interval_, kMaxTrialInterval);
    quietSeconds_ = kQuietFactor * seconds;
  }
  stepsToTrial_ = interval_;
  trial_ = -1;
}

}  // namespace crowd
