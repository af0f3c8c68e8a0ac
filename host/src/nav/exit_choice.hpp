// Which exit each agent of a crowd takes (crowd/navigation.hpp, ExitChoice): the walk to each
// open exit, plus, when queues count, the wait behind those heading for it who are nearer to it,
// at the exit's flow. People decide one after another (in the order given), each seeing the
// choices of those before it, so that a crowd does not swing from one exit to another all at once;
// one keeps its exit unless another saves it the margin, or its exit has closed.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

namespace crowd {

struct ExitChoice;

/// One agent's options: for each exit it may take, the exit (a number shared by the crowd) and
/// the length of its route there (negative: out of reach, or closed).
struct ExitOptions {
  std::int32_t current = -1;  ///< The exit it heads for now; -1: none yet.
  float speed = 1.0f;         ///< Its preferred speed, to turn a route's length into time. [> 0]
  std::span<const std::int32_t> exits;
  std::span<const float> lengths;
};

/// The exit each agent takes (-1 where none of its options is open and reachable, or it keeps a
/// closed current exit for want of another). `exitCount`: exits are numbered 0 .. exitCount - 1.
/// `byQueue` false: the nearest by route, with the margin.
std::vector<std::int32_t> pickExits(std::span<const ExitOptions> agents, std::size_t exitCount,
                                    const ExitChoice& rule);

}  // namespace crowd
