// Unit tests for crowd/kernels/k_nearest.hpp: the bounded sorted neighbour list. The list must
// equal "the K smallest (distance, id) pairs strictly inside the range", whatever order the
// candidates are offered in; that is what makes grid, tree and threaded scans agree.
#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

#include <gtest/gtest.h>

#include "crowd/kernels/k_nearest.hpp"

namespace {

using crowd::AgentNeighbours;

struct Candidate {
  float distSq;
  unsigned id;
};

/// The expected list, straight from the definition: candidates strictly inside the range,
/// sorted by (distance, id), the first `keep` of them.
std::vector<Candidate> expectedNearest(std::vector<Candidate> candidates, int keep, float rangeSq) {
  std::vector<Candidate> inRange;
  for (const Candidate& c : candidates) {
    if (c.distSq < rangeSq) inRange.push_back(c);
  }
  std::sort(inRange.begin(), inRange.end(), [](const Candidate& a, const Candidate& b) {
    return a.distSq < b.distSq || (a.distSq == b.distSq && a.id < b.id);
  });
  if (static_cast<int>(inRange.size()) > keep) inRange.resize(keep);
  return inRange;
}

template <int Capacity>
void expectList(const crowd::NearestList<Capacity>& list, const std::vector<Candidate>& expected) {
  ASSERT_EQ(list.count, static_cast<int>(expected.size()));
  for (int i = 0; i < list.count; ++i) {
    EXPECT_EQ(list.distSq(i), expected[i].distSq) << "entry " << i;
    EXPECT_EQ(list.id(i), expected[i].id) << "entry " << i;
    // The index travels with its candidate (here index = 1000 + id).
    EXPECT_EQ(list.index(i), 1000 + static_cast<int>(expected[i].id)) << "entry " << i;
  }
}

template <int Capacity>
void offerAll(crowd::NearestList<Capacity>& list, const std::vector<Candidate>& candidates) {
  for (const Candidate& c : candidates) list.offer(c.distSq, c.id, 1000 + static_cast<int>(c.id));
}

TEST(KernelKNearest, KeepsTheKNearestInAscendingOrderWhateverTheOfferOrder) {
  std::vector<Candidate> candidates;
  for (unsigned id = 0; id < 40; ++id) {
    // Distinct distances, not in id order.
    candidates.push_back(Candidate{static_cast<float>((id * 17) % 40) + 0.5f, id});
  }
  const std::vector<Candidate> expected = expectedNearest(candidates, 10, 1000.0f);
  ASSERT_EQ(expected.size(), 10u);
  std::mt19937 rng(3);
  for (int shuffle = 0; shuffle < 200; ++shuffle) {
    std::shuffle(candidates.begin(), candidates.end(), rng);
    AgentNeighbours list;
    list.reset(10, 1000.0f);
    offerAll(list, candidates);
    SCOPED_TRACE(testing::Message() << "shuffle " << shuffle);
    expectList(list, expected);
  }
}

TEST(KernelKNearest, FewerCandidatesThanCapacityAreAllKept) {
  std::vector<Candidate> candidates = {{4.0f, 2}, {1.0f, 7}, {9.0f, 1}, {2.5f, 3}};
  AgentNeighbours list;
  list.reset(10, 100.0f);
  offerAll(list, candidates);
  expectList(list, expectedNearest(candidates, 10, 100.0f));
  // Not full: the range is still the initial one.
  EXPECT_EQ(list.rangeSq, 100.0f);
}

TEST(KernelKNearest, RangeIsStrict) {
  AgentNeighbours list;
  list.reset(5, 9.0f);
  list.offer(9.0f, 1, 1001);  // Exactly at neighbourDist: excluded.
  list.offer(std::nextafter(9.0f, 0.0f), 2, 1002);
  list.offer(std::nextafter(9.0f, 100.0f), 3, 1003);
  list.offer(0.0f, 4, 1004);  // Coincident: distance zero is inside any positive range.
  expectList(list, {{0.0f, 4}, {std::nextafter(9.0f, 0.0f), 2}});
}

TEST(KernelKNearest, TiesAreBrokenByIdWhateverTheOfferOrder) {
  // Twelve candidates at the same distance and a few others; keep 5.
  std::vector<Candidate> candidates;
  for (unsigned id = 20; id < 32; ++id) candidates.push_back(Candidate{4.0f, id});
  candidates.push_back(Candidate{1.0f, 99});
  candidates.push_back(Candidate{4.0f, 50});
  candidates.push_back(Candidate{6.0f, 3});
  const std::vector<Candidate> expected = expectedNearest(candidates, 5, 100.0f);
  // The nearest, then the four smallest ids at distance 4.
  ASSERT_EQ(expected[0].id, 99u);
  ASSERT_EQ(expected[4].id, 23u);
  std::mt19937 rng(8);
  for (int shuffle = 0; shuffle < 200; ++shuffle) {
    std::shuffle(candidates.begin(), candidates.end(), rng);
    AgentNeighbours list;
    list.reset(5, 100.0f);
    offerAll(list, candidates);
    SCOPED_TRACE(testing::Message() << "shuffle " << shuffle);
    expectList(list, expected);
  }
}

TEST(KernelKNearest, CapacityZeroKeepsNothing) {
  AgentNeighbours list;
  list.reset(0, 100.0f);
  list.offer(1.0f, 1, 1001);
  list.offer(0.0f, 2, 1002);
  EXPECT_EQ(list.count, 0);
}

TEST(KernelKNearest, CapacityIsCappedByTheArray) {
  AgentNeighbours list;
  list.reset(crowd::kMaxNeighbors + 10, 1e9f);
  EXPECT_EQ(list.capacity, crowd::kMaxNeighbors);
  std::vector<Candidate> candidates;
  for (unsigned id = 0; id < 100; ++id) {
    candidates.push_back(Candidate{static_cast<float>(100 - id), id});
  }
  offerAll(list, candidates);
  expectList(list, expectedNearest(candidates, crowd::kMaxNeighbors, 1e9f));
}

TEST(KernelKNearest, RangeShrinksOnceFull) {
  AgentNeighbours list;
  list.reset(3, 100.0f);
  list.offer(10.0f, 5, 1005);
  list.offer(30.0f, 6, 1006);
  EXPECT_EQ(list.rangeSq, 100.0f);
  list.offer(20.0f, 7, 1007);
  EXPECT_EQ(list.rangeSq, 30.0f);  // Full: the farthest kept one.
  list.offer(40.0f, 1, 1001);      // Inside the initial range but beyond the new one.
  list.offer(30.0f, 8, 1008);      // A tie with the farthest, but a larger id.
  expectList(list, {{10.0f, 5}, {20.0f, 7}, {30.0f, 6}});
  list.offer(30.0f, 2, 1002);  // A tie with a smaller id wins.
  expectList(list, {{10.0f, 5}, {20.0f, 7}, {30.0f, 2}});
  EXPECT_EQ(list.rangeSq, 30.0f);
  list.offer(5.0f, 9, 1009);
  expectList(list, {{5.0f, 9}, {10.0f, 5}, {20.0f, 7}});
  EXPECT_EQ(list.rangeSq, 20.0f);
}

TEST(KernelKNearest, MayAcceptAgreesWithOffer) {
  AgentNeighbours list{};  // Value-initialised: the test copies the whole array below.
  list.reset(2, 50.0f);
  // Not full: strictly inside the range only.
  EXPECT_TRUE(list.mayAccept(49.0f));
  EXPECT_FALSE(list.mayAccept(50.0f));
  EXPECT_FALSE(list.mayAccept(60.0f));
  list.offer(10.0f, 4, 1004);
  list.offer(20.0f, 6, 1006);
  // Full at range 20: a tie could still win on id, anything farther cannot.
  EXPECT_TRUE(list.mayAccept(19.0f));
  EXPECT_TRUE(list.mayAccept(20.0f));
  EXPECT_FALSE(list.mayAccept(20.5f));

  // Whenever mayAccept says no, no offer at that distance may change the list.
  std::mt19937 rng(31);
  std::uniform_int_distribution<int> tenths(0, 700);
  for (int i = 0; i < 2000; ++i) {
    const float d = static_cast<float>(tenths(rng)) * 0.1f;
    const unsigned id = static_cast<unsigned>(i % 13);
    const bool may = list.mayAccept(d);
    const AgentNeighbours before = list;
    list.offer(d, id, 1000 + static_cast<int>(id));
    bool changed = before.count != list.count;
    for (int k = 0; k < list.count && !changed; ++k) {
      changed = before.distSq(k) != list.distSq(k) || before.id(k) != list.id(k);
    }
    if (!may) {
      ASSERT_FALSE(changed) << "d = " << d << ", id = " << id;
    }
  }
}

TEST(KernelKNearest, RandomStreamsMatchTheDefinition) {
  std::mt19937 rng(101);
  std::uniform_int_distribution<int> quantised(0, 60);  // Many ties.
  std::uniform_int_distribution<int> keepDist(0, crowd::kMaxNeighbors);
  for (int trial = 0; trial < 300; ++trial) {
    const int keep = keepDist(rng);
    const float rangeSq = static_cast<float>(quantised(rng));
    std::vector<Candidate> candidates;
    const unsigned n = static_cast<unsigned>(trial % 80);
    for (unsigned id = 0; id < n; ++id) {
      candidates.push_back(Candidate{static_cast<float>(quantised(rng)) * 0.5f, id});
    }
    std::shuffle(candidates.begin(), candidates.end(), rng);
    AgentNeighbours list;
    list.reset(keep, rangeSq);
    offerAll(list, candidates);
    SCOPED_TRACE(testing::Message() << "trial " << trial);
    expectList(list, expectedNearest(candidates, keep, rangeSq));
  }
}

// The GPU's list, every entry in a register, keeps what the definition keeps, offer by offer:
// count, order, indices, range and what mayAccept answers, for every capacity up to its own and
// beyond it (capped), with many ties, NaN distances and ranges that admit none.
TEST(KernelKNearest, RegisterListKeepsWhatTheDefinitionKeeps) {
  std::mt19937 rng(202);
  std::uniform_int_distribution<int> quantised(0, 40);  // Many ties.
  std::uniform_int_distribution<int> keepDist(0, 20);
  for (int trial = 0; trial < 400; ++trial) {
    const int keep = keepDist(rng);
    const float rangeSq = trial % 17 == 0 ? 0.0f : static_cast<float>(quantised(rng));
    std::vector<Candidate> candidates;
    const unsigned n = static_cast<unsigned>(trial % 60);
    for (unsigned id = 0; id < n; ++id) {
      const float d = id % 23 == 7 ? NAN : static_cast<float>(quantised(rng)) * 0.5f;
      candidates.push_back(Candidate{d, id});
    }
    std::shuffle(candidates.begin(), candidates.end(), rng);
    crowd::NearestInRegisters<16> registers;
    AgentNeighbours list;
    registers.reset(keep, rangeSq);
    list.reset(std::min(keep, 16), rangeSq);
    SCOPED_TRACE(testing::Message() << "trial " << trial << " keep " << keep);
    for (const Candidate& c : candidates) {
      ASSERT_EQ(registers.mayAccept(c.distSq), list.mayAccept(c.distSq)) << c.distSq;
      registers.offer(c.distSq, c.id, 1000 + static_cast<int>(c.id));
      list.offer(c.distSq, c.id, 1000 + static_cast<int>(c.id));
      ASSERT_EQ(registers.count, list.count);
      ASSERT_EQ(registers.rangeSq, list.rangeSq);
    }
    std::vector<Candidate> finite;
    for (const Candidate& c : candidates) {
      if (!std::isnan(c.distSq)) finite.push_back(c);
    }
    const std::vector<Candidate> expected = expectedNearest(finite, std::min(keep, 16), rangeSq);
    ASSERT_EQ(registers.count, static_cast<int>(expected.size()));
    int visited = 0;
    registers.forEachKept([&](int m, int index) {
      EXPECT_EQ(m, visited++);
      EXPECT_EQ(index, 1000 + static_cast<int>(expected[static_cast<std::size_t>(m)].id)) << "entry " << m;
    });
    EXPECT_EQ(visited, registers.count);
  }
}

TEST(KernelKNearest, ObstacleListWorksTheSameWay) {
  std::vector<Candidate> candidates;
  for (unsigned id = 0; id < 200; ++id) {
    candidates.push_back(Candidate{static_cast<float>((id * 37) % 101), id});
  }
  std::mt19937 rng(13);
  std::shuffle(candidates.begin(), candidates.end(), rng);
  crowd::ObstacleNeighbours list;
  list.reset(crowd::kMaxObstacleNeighbors, 80.0f);
  offerAll(list, candidates);
  expectList(list, expectedNearest(candidates, crowd::kMaxObstacleNeighbors, 80.0f));
}

TEST(KernelKNearest, NearnessKeyOrdersByDistanceThenId) {
  EXPECT_LT(crowd::nearnessKey(1.0f, 9), crowd::nearnessKey(2.0f, 0));
  EXPECT_GT(crowd::nearnessKey(2.0f, 0), crowd::nearnessKey(1.0f, 9));
  EXPECT_LT(crowd::nearnessKey(1.0f, 3), crowd::nearnessKey(1.0f, 4));
  EXPECT_GT(crowd::nearnessKey(1.0f, 4), crowd::nearnessKey(1.0f, 3));
  // Zero, tiny (subnormal) and huge distances keep their order; -0 counts as 0.
  EXPECT_LT(crowd::nearnessKey(0.0f, 7), crowd::nearnessKey(1e-40f, 0));
  EXPECT_LT(crowd::nearnessKey(1e-40f, 7), crowd::nearnessKey(1e30f, 0));
  EXPECT_LT(crowd::nearnessKey(1e30f, 7), crowd::nearnessKey(INFINITY, 0));
  EXPECT_EQ(crowd::nearnessKey(-0.0f, 5), crowd::nearnessKey(0.0f, 5));
  // The distance comes back exactly.
  crowd::AgentNeighbours list;
  list.reset(4, 100.0f);
  list.offer(2.5f, 7, 70);
  EXPECT_EQ(list.distSq(0), 2.5f);
  EXPECT_EQ(list.id(0), 7u);
  EXPECT_EQ(list.index(0), 70);
}

}  // namespace
