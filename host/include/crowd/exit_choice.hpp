// Which exit each person of a crowd takes (ExitChoice), and exits that are open only at some
// hours (ExitHours): the rules the simulator's navigation applies to agents with several exits
// (crowd/navigation.hpp), and pickExits, the choice itself, for a program that measures its own
// distances (straight lines in an open room, its own routes).
#pragma once

#include <cmath>
#include <cstdint>
#include <span>
#include <vector>

#include <crowd/kernels/vec2.hpp>

namespace crowd {

/// How an agent with several exits picks one. By default it takes the nearest by route length
/// once, and again only when it is re-planned or an exit opens or closes. With `byQueue`, every
/// `every` seconds each such agent weighs, for every open exit, the walk there at its preferred
/// speed plus the wait behind those heading there who are nearer to it (their number over
/// `exitFlow`), and moves to another exit when that saves it `margin` seconds: people leave a
/// jammed exit for a free one farther off. Agents decide one after another, in the order of
/// their ids, each seeing the choices of those before it.
struct ExitChoice {
  bool byQueue = false;
  /// Persons per second one exit passes. [Limit: > 0, finite]
  float exitFlow = 1.3f;
  /// Seconds between choices by queue. [Limit: > 0, finite]
  float every = 2.0f;
  /// Seconds another exit must save before an agent moves to it. [Limit: >= 0, finite]
  float margin = 2.0f;
};

/// An exit (a goal point of agents' exit sets, matched exactly) that is open only from `opens`
/// until `closes`, in seconds of simulated time. Nobody is sent to a closed exit: those heading
/// for one when it closes take another open exit of their set (one with none keeps its way).
struct ExitHours {
  Vec2 at{0.0f, 0.0f};
  float opens = 0.0f;
  float closes = INFINITY;
  bool openAt(double time) const { return time >= opens && time < closes; }
};

/// One person's options for pickExits: for each exit it may take, the exit (a number shared by
/// the crowd) and its distance to it (the length of its route there; negative: out of reach).
/// Closed exits are left out, or given a negative length.
struct ExitOptions {
  std::int32_t current = -1;  ///< The exit it heads for now; -1: none yet.
  float speed = 1.0f;         ///< Its preferred speed, to turn a distance into time. [> 0]
  std::span<const std::int32_t> exits;
  std::span<const float> lengths;
};

/// The exit each person takes under `rule`, deciding one after another in the order given, each
/// seeing the choices of those before it. The wait at an exit counts those heading for it whose
/// distance to it is shorter. Without byQueue: the nearest, with the margin. -1 where none of
/// its options is open and reachable. `exitCount`: exits are numbered 0 .. exitCount - 1.
std::vector<std::int32_t> pickExits(std::span<const ExitOptions> people, std::size_t exitCount,
                                    const ExitChoice& rule);

}  // namespace crowd
