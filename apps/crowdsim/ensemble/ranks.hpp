// The processes an ensemble is shared between. Started by mpirun (OpenMPI's or another that sets
// PMI_SIZE/PMIX_RANK) in a build with MPI, each process is one rank of MPI_COMM_WORLD; otherwise
// there is one process, rank 0 of 1, and MPI is never started, so that `crowdsim run` and an
// ensemble without mpirun need no MPI at all.
#pragma once

#include <optional>
#include <string>

namespace crowd::cli {

class Ranks {
 public:
  /// Starts MPI where the process was launched by mpirun. Throws std::invalid_argument where it
  /// was launched as one of several but this build has no MPI (each would run every run).
  Ranks();
  /// Ends MPI, where it was started.
  ~Ranks();
  Ranks(const Ranks&) = delete;
  Ranks& operator=(const Ranks&) = delete;

  int rank() const { return rank_; }
  int size() const { return size_; }
  bool isRoot() const { return rank_ == 0; }

  /// Rank 0's `text`, given to every rank.
  void broadcast(std::string& text) const;
  /// Sends `text` to rank 0 (from another rank).
  void sendToRoot(const std::string& text) const;
  /// On rank 0: a text another rank sent, if one has come.
  std::optional<std::string> poll() const;
  /// On rank 0, once every run is in: lets the other ranks go on to their end (awaitRelease).
  void releaseOthers() const;
  /// On another rank, once its share is sent: waits for rank 0's release, asleep between looks
  /// (MPI's own waits spin, and on a machine with more ranks than cores the spinning would take
  /// the cores the last runs need). Honours a stop request (crowd/stop_request.hpp).
  void awaitRelease() const;
  /// Ends every rank at once with `exitCode` (after an error on one rank, which the others would
  /// otherwise wait for); returns where there is one rank only.
  void abort(int exitCode) const;

 private:
  int rank_ = 0;
  int size_ = 1;
  bool started_ = false;
};

/// The number of processes mpirun says it started, from its environment; 1 without mpirun.
int launchedProcesses();

}  // namespace crowd::cli
