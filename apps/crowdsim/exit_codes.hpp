// crowdsim's exit codes, as its --help lists them: what a script calling it can tell apart. main.cpp
// maps what a command throws to them; a command returns one itself only where it reports a
// problem without throwing.
#pragma once

namespace crowd::cli {

inline constexpr int kExitSuccess = 0;
/// A failure while running (a file that cannot be written, the simulation or the display failing).
inline constexpr int kExitFailure = 1;
/// Bad usage or bad input: refused before anything ran.
inline constexpr int kExitBadInput = 2;
/// Stopped by Ctrl-C (128 + SIGINT, as shells report it); another stop signal gives 128 + its
/// number (stop_signals.hpp): a work stopped throws crowd::Interrupted, saying how far it got.
inline constexpr int kExitInterrupted = 130;

}  // namespace crowd::cli
