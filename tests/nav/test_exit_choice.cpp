// The choice of exits (crowd/exit_choice.hpp): the nearest by route without queues, the wait behind
// those nearer to an exit weighed against the walk with them, the margin that keeps people where
// they are, and closed or unreachable exits.
#include <algorithm>
#include <cstdint>
#include <vector>

#include <gtest/gtest.h>

#include <crowd/exit_choice.hpp>

namespace crowd {
namespace {

// Agents that may take exit 0 or exit 1, at these route lengths; all walk at 1 m/s.
struct Crowd {
  std::vector<std::vector<std::int32_t>> exits;
  std::vector<std::vector<float>> lengths;
  std::vector<ExitOptions> options;
  void add(std::int32_t current, std::vector<std::int32_t> to, std::vector<float> at) {
    exits.push_back(std::move(to));
    lengths.push_back(std::move(at));
    options.push_back(ExitOptions{current, 1.0f, {}, {}});
  }
  std::vector<std::int32_t> choose(const ExitChoice& rule) {
    for (std::size_t a = 0; a < options.size(); ++a) {
      options[a].exits = exits[a];
      options[a].lengths = lengths[a];
    }
    return pickExits(options, 2, rule);
  }
};

TEST(ExitChoice, NearestByRouteWithoutQueues) {
  Crowd crowd;
  crowd.add(-1, {0, 1}, {3.0f, 8.0f});
  crowd.add(-1, {0, 1}, {9.0f, 4.0f});
  crowd.add(-1, {0, 1}, {5.0f, 5.0f});  // A tie goes to the lower exit number.
  EXPECT_EQ(crowd.choose(ExitChoice{}), (std::vector<std::int32_t>{0, 1, 0}));
}

TEST(ExitChoice, ALongQueueSendsTheBackOfItToTheFartherExit) {
  // Ten people queue for exit 0 at 1..10 m from it; exit 1 is 5 m farther for each. At 1 person
  // per second, the one 9 m away waits 8 s: 17 s against 14 s at exit 1, more than the 2 s
  // margin, so it moves. The last one then sees 8 ahead at exit 0 (18 s) and the one who moved
  // ahead of it at exit 1 (15 + 1 = 16 s): not 2 s better, it stays. The first eight stay (at
  // k m: 2k - 1 s against k + 5 s, better by no more than the margin).
  Crowd crowd;
  for (int k = 1; k <= 10; ++k) crowd.add(0, {0, 1}, {static_cast<float>(k), static_cast<float>(k + 5)});
  ExitChoice rule;
  rule.byQueue = true;
  rule.exitFlow = 1.0f;
  rule.margin = 2.0f;
  EXPECT_EQ(crowd.choose(rule), (std::vector<std::int32_t>{0, 0, 0, 0, 0, 0, 0, 0, 1, 0}));
  // Without the margin more leave: everyone for whom the other exit is any faster.
  rule.margin = 0.0f;
  const std::vector<std::int32_t> eager = crowd.choose(rule);
  EXPECT_GT(std::count(eager.begin(), eager.end(), 1), 1);
  // Without queues nobody leaves the nearer exit.
  rule.byQueue = false;
  EXPECT_EQ(crowd.choose(rule), std::vector<std::int32_t>(10, 0));
}

TEST(ExitChoice, AClosedOrUnreachableExitIsLeftWhateverTheMargin) {
  Crowd crowd;
  crowd.add(0, {1}, {50.0f});            // Exit 0 closed: not among its options.
  crowd.add(0, {0, 1}, {-1.0f, 50.0f});  // Exit 0 out of reach.
  crowd.add(1, {}, {});                  // Nothing open: none.
  ExitChoice rule;
  rule.margin = 100.0f;
  EXPECT_EQ(crowd.choose(rule), (std::vector<std::int32_t>{1, 1, -1}));
}

}  // namespace
}  // namespace crowd
