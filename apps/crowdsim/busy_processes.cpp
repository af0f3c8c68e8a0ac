#include "busy_processes.hpp"

#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstring>
#include <stdexcept>
#include <string>

namespace crowd::cli {

BusyProcesses::BusyProcesses(int count) {
  for (int i = 0; i < count; ++i) {
    const pid_t pid = fork();
    if (pid < 0) {
      const std::string why = std::strerror(errno);
      stop();
      throw std::runtime_error("cannot start a busy process: " + why);
    }
    if (pid == 0) {
      // The child: dies with its parent (however the parent ends), and spins. It touches
      // nothing of the parent's state, OpenMP's included.
      prctl(PR_SET_PDEATHSIG, SIGKILL);
      if (getppid() == 1) _exit(0);  // The parent is gone already.
      volatile unsigned long spins = 0;
      for (;;) spins = spins + 1;
    }
    children_.push_back(pid);
  }
}

BusyProcesses::~BusyProcesses() {
  stop();
}

void BusyProcesses::stop() {
  for (const pid_t pid : children_) kill(pid, SIGKILL);
  for (const pid_t pid : children_) waitpid(pid, nullptr, 0);
  children_.clear();
}

}  // namespace crowd::cli
