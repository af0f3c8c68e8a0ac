#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <charconv>
#include <cstring>
#include <stdexcept>
#include <string_view>

#include <crowd/output_file.hpp>

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

int ownDescriptor(const std::string& path) {
  namespace fs = std::filesystem;
  fs::path p = path;
  std::error_code error;
  for (int hops = 0; hops <= kMostLinkHops; ++hops) {
    const std::string text = p.string();
    if (text == "/dev/stdout") return STDOUT_FILENO;
    if (text == "/dev/stderr") return STDERR_FILENO;
    const std::string ownProc = "/proc/" + std::to_string(::getpid()) + "/fd/";
    for (const std::string_view prefix :
         {std::string_view("/dev/fd/"), std::string_view("/proc/self/fd/"),
          std::string_view("/proc/thread-self/fd/"), std::string_view(ownProc)}) {
      if (const int fd = descriptorAfter(text, prefix); fd >= 0) return fd;
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
  std::error_code error;
  const fs::file_status status = fs::status(target, error);
  // A device, pipe or socket (/dev/null, a FIFO) is written as it is: there is no old file to
  // keep, and renaming over it would replace the device with a file.
  direct_ = fs::exists(status) && !fs::is_regular_file(status);
  // Otherwise beside the target, so that the rename stays within one file system and is atomic.
  temporary_ = direct_ ? target.string() : target.string() + ".partial-" + std::to_string(::getpid());
  target_ = target.string();
  file_ = direct_ ? std::fopen(temporary_.c_str(), "w") : createTemporary(temporary_);
  if (file_ == nullptr) throw std::runtime_error(path + ": cannot open for writing: " + std::strerror(errno));
}

OutputFile::~OutputFile() {
  if (file_ == nullptr) return;
  std::fclose(file_);
  if (!direct_) std::remove(temporary_.c_str());
}

void OutputFile::commit() {
  if (file_ == nullptr) throw std::runtime_error(path_ + ": already written");
  const bool failed = std::ferror(file_) != 0;
  const bool closeFailed = std::fclose(file_) != 0;
  file_ = nullptr;
  if (failed || closeFailed) {
    if (!direct_) std::remove(temporary_.c_str());
    throw std::runtime_error(path_ + ": writing failed (disk full?); the old file, if any, is kept");
  }
  if (direct_) return;
  if (std::rename(temporary_.c_str(), target_.c_str()) != 0) {
    const std::string reason = std::strerror(errno);
    std::remove(temporary_.c_str());
    throw std::runtime_error(path_ + ": cannot put the file in place: " + reason);
  }
}

}  // namespace crowd
