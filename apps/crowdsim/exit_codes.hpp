// crowdsim's exit codes, as its --help lists them: what a script calling it can tell apart. main.cpp
// maps what a command throws to them; a command returns one itself only where it reports a
// problem without throwing.
#pragma once

#include <stdexcept>

namespace crowd::cli {

inline constexpr int kExitSuccess = 0;
/// A failure while running (a file that cannot be written, the simulation or the display failing).
inline constexpr int kExitFailure = 1;
/// Bad usage or bad input: refused before anything ran.
inline constexpr int kExitBadInput = 2;
/// Stopped by Ctrl-C or a termination request (128 + SIGINT, as shells report it).
inline constexpr int kExitInterrupted = 130;

/// Thrown by a run stopped by Ctrl-C or a termination request (kExitInterrupted); what() says
/// how far it got.
class RunInterrupted : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace crowd::cli
