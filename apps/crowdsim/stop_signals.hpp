// The signals that stop crowdsim cleanly: Ctrl-C (INT), a termination request (TERM), a closed
// terminal (HUP), Ctrl-\ (QUIT), a pipe whose reader went away (PIPE) and a file grown past the
// size limit (XFSZ). Each one, left to its default, kills the process in the middle of a write
// and leaves the temporary output files behind; caught, it becomes a request to stop
// (crowd/stop_request.hpp) that the work honours at its next poll, unwinding so that those
// files are removed, and crowdsim exits with 128 + the signal's number, as shells report it.
#pragma once

#include <string>

namespace crowd::cli {

/// Catches the signals above for the rest of the process, except those it was started with
/// ignored (nohup's HUP). A second INT, TERM, HUP or QUIT while the first is pending stops at
/// once, the default way (for work that does not poll); PIPE and XFSZ come again with every
/// failed write and only ever request.
void catchStopSignals();

/// The exit code for a stop asked for by `signal`: 128 + its number (130 for Ctrl-C).
int stoppedExitCode(int signal);

/// "SIGINT", "SIGHUP", ...: the signal's name as `kill -l` lists it.
std::string signalName(int signal);

}  // namespace crowd::cli
