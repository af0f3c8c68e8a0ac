#include <fcntl.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <charconv>
#include <cstring>
#include <stdexcept>
#include <string_view>
#include <vector>

#include <crowd/output_file.hpp>
#include <crowd/stop_request.hpp>

namespace crowd {
namespace {

// A symbolic link chain longer than this is taken for a loop (as the kernel's own limit).
constexpr int kMostLinkHops = 40;

// The descriptor number a path of the form PREFIX<digits> names, else -1.
int descriptorAfter(std::string_view path, std::string_view prefix) {
  if (path.substr(0, prefix.size()) != prefix || path.size() == prefix.size()) return -1;
  int fd = -1;
  const char* end = path.data() + path.size();
  const auto [stop, error] = std::from_chars(path.data() + prefix.size(), end, fd);
  return error == std::errc() && stop == end ? fd : -1;
}

// The next hop of a link chain, relative targets taken from the link's folder.
std::filesystem::path nextHop(const std::filesystem::path& link, std::error_code& error) {
  const std::filesystem::path target = std::filesystem::read_symlink(link, error);
  return target.is_absolute() ? target : link.parent_path() / target;
}

// A new file at `path`, never through a link left there (by a process of the same number,
// say): one found there is removed first. Null with errno set when it cannot be made.
std::FILE* createTemporary(const std::string& path) {
  for (int attempt = 0; attempt < 2; ++attempt) {
    const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
    if (fd >= 0) {
      std::FILE* file = ::fdopen(fd, "w");
      if (file == nullptr) ::close(fd);
      return file;
    }
    if (errno != EEXIST || ::unlink(path.c_str()) != 0) return nullptr;
  }
  return nullptr;
}

// The name a file for `target` is written under until it is complete: beside it, so that the
// rename stays within one file system and is atomic.
std::string temporaryPath(const std::filesystem::path& target) {
  return target.string() + ".partial-" + std::to_string(::getpid());
}

// A device, pipe or socket (/dev/null, a FIFO) is written as it is: there is no old file to
// keep, and renaming over it would replace the device with a file.
bool writtenDirectly(const std::filesystem::path& target) {
  std::error_code error;
  const std::filesystem::file_status status = std::filesystem::status(target, error);
  return std::filesystem::exists(status) && !std::filesystem::is_regular_file(status);
}

}  // namespace

std::filesystem::path outputTarget(const std::string& path) {
  namespace fs = std::filesystem;
  fs::path p = path;
  std::error_code error;
  for (int hops = 0; fs::is_symlink(fs::symlink_status(p, error)); ++hops) {
    if (hops == kMostLinkHops)
      throw std::runtime_error(path + ": too many levels of symbolic links (a loop?)");
    p = nextHop(p, error);
    if (error) break;
  }
  return p;
}

namespace {
std::atomic<int> keptStandardOutput{STDOUT_FILENO};
}  // namespace

void keepStandardOutputForFiles() {
  if (keptStandardOutput.load() != STDOUT_FILENO) return;
  std::fflush(stdout);  // What was printed before goes where it was going.
  const int kept = ::fcntl(STDOUT_FILENO, F_DUPFD_CLOEXEC, 3);
  if (kept < 0) return;
  if (::dup2(STDERR_FILENO, STDOUT_FILENO) < 0) {
    ::close(kept);
    return;
  }
  keptStandardOutput.store(kept);
}

int standardOutputDescriptor() {
  return keptStandardOutput.load();
}

int ownDescriptor(const std::string& path) {
  namespace fs = std::filesystem;
  const int out = standardOutputDescriptor();
  if (path == "-") return out;  // The command line's usual name for standard output.
  fs::path p = path;
  std::error_code error;
  for (int hops = 0; hops <= kMostLinkHops; ++hops) {
    const std::string text = p.string();
    if (text == "/dev/stdout") return out;
    if (text == "/dev/stderr") return STDERR_FILENO;
    const std::string ownProc = "/proc/" + std::to_string(::getpid()) + "/fd/";
    for (const std::string_view prefix :
         {std::string_view("/dev/fd/"), std::string_view("/proc/self/fd/"),
          std::string_view("/proc/thread-self/fd/"), std::string_view(ownProc)}) {
      if (const int fd = descriptorAfter(text, prefix); fd >= 0) return fd == STDOUT_FILENO ? out : fd;
    }
    if (!fs::is_symlink(fs::symlink_status(p, error))) return -1;
    p = nextHop(p, error);
    if (error) return -1;
  }
  return -1;
}

OutputFile::OutputFile(const std::string& path) : path_(path) {
  namespace fs = std::filesystem;
  if (path.empty()) throw std::runtime_error("an output file needs a name, got an empty one");
  // One of this process's own descriptors (/dev/stdout, say): written through a copy of it, so
  // that a redirection's file (appended to, or not) or pipe gets the output as the shell set up.
  if (const int fd = ownDescriptor(path); fd >= 0) {
    direct_ = true;
    temporary_ = target_ = path;
    std::fflush(nullptr);  // What the process printed to it before comes first.
    const int copy = ::dup(fd);
    file_ = copy >= 0 ? ::fdopen(copy, "w") : nullptr;
    if (file_ == nullptr) {
      const std::string reason = std::strerror(errno);
      if (copy >= 0) ::close(copy);
      throw std::runtime_error(path + ": cannot write: " + reason);
    }
    return;
  }
  const fs::path target = outputTarget(path);
  direct_ = writtenDirectly(target);
  temporary_ = direct_ ? target.string() : temporaryPath(target);
  target_ = target.string();
  file_ = direct_ ? std::fopen(temporary_.c_str(), "w") : createTemporary(temporary_);
  if (file_ == nullptr) throw std::runtime_error(path + ": cannot open for writing: " + std::strerror(errno));
}

void OutputFile::checkCreatable(const std::string& path) {
  if (ownDescriptor(path) >= 0) return;
  const std::filesystem::path target = outputTarget(path);
  if (writtenDirectly(target)) return;
  const std::string temporary = temporaryPath(target);
  std::FILE* probe = createTemporary(temporary);
  if (probe == nullptr) {
    throw std::runtime_error(path + ": cannot create the temporary file " + temporary +
                             " it is written under: " + std::strerror(errno));
  }
  std::fclose(probe);
  std::remove(temporary.c_str());
}

OutputFile::~OutputFile() {
  if (file_ != nullptr) std::fclose(file_);
  if ((file_ != nullptr || finished_) && !direct_) std::remove(temporary_.c_str());
}

void OutputFile::finish() {
  if (file_ == nullptr) throw std::runtime_error(path_ + ": already written");
  const bool failed = std::ferror(file_) != 0;
  const bool closeFailed = std::fclose(file_) != 0;
  file_ = nullptr;
  if (failed || closeFailed) {
    if (!direct_) std::remove(temporary_.c_str());
    throw std::runtime_error(path_ + ": writing failed (disk full?); the old file, if any, is kept");
  }
  finished_ = true;
}

bool OutputFile::place() {
  finished_ = false;
  if (direct_) return true;
  if (std::rename(temporary_.c_str(), target_.c_str()) == 0) return true;
  const int reason = errno;
  std::remove(temporary_.c_str());
  errno = reason;
  return false;
}

void OutputFile::commit() {
  commitTogether({this});
}

void OutputFile::commitTogether(const std::vector<OutputFile*>& files) {
  for (OutputFile* file : files) {
    if (file != nullptr) file->finish();
  }
  throwIfStopRequested("before its outputs were put in place");
  // The old files, kept under a second name (a hard link) until every rename has worked.
  struct Kept {
    OutputFile* file;
    std::string old;  ///< Empty: there was no old file, or it could not be kept.
    bool existed;
  };
  std::vector<Kept> placed;
  const auto putBack = [&placed] {
    for (const Kept& kept : placed) {
      if (!kept.old.empty()) {
        std::rename(kept.old.c_str(), kept.file->target_.c_str());
      } else if (!kept.existed) {
        std::remove(kept.file->target_.c_str());
      }
    }
  };
  for (OutputFile* file : files) {
    if (file == nullptr) continue;
    if (file->direct_) {
      file->place();
      continue;
    }
    std::string old = file->target_ + ".old-" + std::to_string(::getpid());
    std::remove(old.c_str());
    std::error_code error;
    const bool existed = std::filesystem::exists(file->target_, error);
    if (!existed || ::link(file->target_.c_str(), old.c_str()) != 0) old.clear();
    if (!file->place()) {
      const std::string reason = std::strerror(errno);
      if (!old.empty()) std::remove(old.c_str());
      putBack();
      throw std::runtime_error(file->path_ + ": cannot put the file in place: " + reason +
                               "; the outputs put in place before it were put back");
    }
    placed.push_back({file, old, existed});
  }
  for (const Kept& kept : placed) {
    if (!kept.old.empty()) std::remove(kept.old.c_str());
  }
}

}  // namespace crowd
