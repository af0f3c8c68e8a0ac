// The ranks of an ensemble (ranks.hpp), with MPI where the build has it (CROWD_WITH_MPI).
#include "ensemble/ranks.hpp"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <stdexcept>
#include <thread>

#ifdef CROWD_WITH_MPI
#include <mpi.h>
#endif

#include <crowd/stop_request.hpp>

namespace crowd::cli {
namespace {

#ifdef CROWD_WITH_MPI
constexpr int kRecordTag = 1;
constexpr int kReleaseTag = 2;
#endif

}  // namespace

int launchedProcesses() {
  // OpenMPI sets OMPI_COMM_WORLD_SIZE; MPICH's and Slurm's launchers PMI_SIZE.
  for (const char* name : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE"}) {
    if (const char* value = std::getenv(name); value != nullptr && std::atoi(value) > 0)
      return std::atoi(value);
  }
  return 1;
}

Ranks::Ranks() {
  const bool launched = std::getenv("OMPI_COMM_WORLD_SIZE") != nullptr ||
                        std::getenv("PMI_SIZE") != nullptr || std::getenv("PMIX_RANK") != nullptr;
#ifdef CROWD_WITH_MPI
  if (!launched) return;
  int provided = 0;
  // OpenMP threads step the runs; MPI is only called from the main thread.
  MPI_Init_thread(nullptr, nullptr, MPI_THREAD_FUNNELED, &provided);
  started_ = true;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
  MPI_Comm_size(MPI_COMM_WORLD, &size_);
#else
  if (launched && launchedProcesses() > 1) {
    throw std::invalid_argument("this crowdsim was built without MPI, so the " +
                                std::to_string(launchedProcesses()) +
                                " processes mpirun started would each run the whole ensemble; run it without "
                                "mpirun, or build with MPI "
                                "(libopenmpi-dev, -DCROWD_MPI=ON)");
  }
#endif
}

Ranks::~Ranks() {
#ifdef CROWD_WITH_MPI
  if (started_) MPI_Finalize();
#endif
}

void Ranks::broadcast([[maybe_unused]] std::string& text) const {
#ifdef CROWD_WITH_MPI
  if (size_ == 1) return;
  unsigned long long length = text.size();
  MPI_Bcast(&length, 1, MPI_UNSIGNED_LONG_LONG, 0, MPI_COMM_WORLD);
  text.resize(length);
  // In pieces: MPI counts are ints, and a plan of many runs can pass 2 GB.
  constexpr unsigned long long kPiece = 1ULL << 30;
  for (unsigned long long at = 0; at < length; at += kPiece) {
    const int count = static_cast<int>(std::min(kPiece, length - at));
    MPI_Bcast(text.data() + at, count, MPI_CHAR, 0, MPI_COMM_WORLD);
  }
#endif
}

void Ranks::sendToRoot([[maybe_unused]] const std::string& text) const {
#ifdef CROWD_WITH_MPI
  MPI_Send(text.data(), static_cast<int>(text.size()), MPI_CHAR, 0, kRecordTag, MPI_COMM_WORLD);
#else
  throw std::logic_error("sendToRoot without MPI");
#endif
}

std::optional<std::string> Ranks::poll() const {
#ifdef CROWD_WITH_MPI
  if (size_ == 1) return std::nullopt;
  int waiting = 0;
  MPI_Status status;
  MPI_Iprobe(MPI_ANY_SOURCE, kRecordTag, MPI_COMM_WORLD, &waiting, &status);
  if (waiting == 0) return std::nullopt;
  int length = 0;
  MPI_Get_count(&status, MPI_CHAR, &length);
  std::string text(static_cast<std::size_t>(length), '\0');
  MPI_Recv(text.data(), length, MPI_CHAR, status.MPI_SOURCE, kRecordTag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  return text;
#else
  return std::nullopt;
#endif
}

void Ranks::releaseOthers() const {
#ifdef CROWD_WITH_MPI
  for (int other = 1; other < size_; ++other)
    MPI_Send(nullptr, 0, MPI_CHAR, other, kReleaseTag, MPI_COMM_WORLD);
#endif
}

void Ranks::awaitRelease() const {
#ifdef CROWD_WITH_MPI
  for (;;) {
    int released = 0;
    MPI_Iprobe(0, kReleaseTag, MPI_COMM_WORLD, &released, MPI_STATUS_IGNORE);
    if (released != 0) break;
    throwIfStopRequested("while waiting for rank 0");
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  MPI_Recv(nullptr, 0, MPI_CHAR, 0, kReleaseTag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
#endif
}

void Ranks::abort([[maybe_unused]] int exitCode) const {
#ifdef CROWD_WITH_MPI
  if (size_ > 1) MPI_Abort(MPI_COMM_WORLD, exitCode);
#endif
}

}  // namespace crowd::cli
