// A request to stop a long piece of work (a run, the placing of a million agents), made from a
// signal handler such as crowdsim's for Ctrl-C and honoured at the next point that polls it. The
// work then unwinds by throwing Interrupted, so that every output file it had open is removed on
// the way out (crowd/output_file.hpp) instead of being left half-written by a process killed
// mid-write.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>

namespace crowd {

/// Records a request to stop, by the signal that asked for it. Safe to call from a signal
/// handler; the first request is kept.
void requestStop(int signal) noexcept;

/// The signal of the request made so far, 0 for none.
int stopRequested() noexcept;

/// What a poll throws once a stop was requested.
class Interrupted : public std::runtime_error {
 public:
  /// `where`: how far the work got ("after 12 steps", "while placing agents").
  Interrupted(int signal, const std::string& where) : std::runtime_error(where), signal_(signal) {}
  /// The signal that asked for the stop.
  int signal() const { return signal_; }

 private:
  int signal_;
};

/// Throws Interrupted with `where` when a stop was requested. Cheap enough for a loop over
/// agents (one atomic load).
void throwIfStopRequested(const char* where);
/// The same between two steps of a run: Interrupted says "after `stepsDone` steps".
void throwIfStopRequested(std::int64_t stepsDone);

}  // namespace crowd
