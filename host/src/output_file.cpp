#include <crowd/output_file.hpp>

#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <stdexcept>

namespace crowd {
namespace {

// Where writing `path` really goes: through any symbolic links (the link is kept, its target
// written), so that the rename below replaces the target and not the link.
std::filesystem::path resolveLinks(const std::filesystem::path& path) {
  namespace fs = std::filesystem;
  fs::path p = path;
  std::error_code error;
  for (int hops = 0; hops < 40 && fs::is_symlink(fs::symlink_status(p, error)); ++hops) {
    const fs::path target = fs::read_symlink(p, error);
    if (error) break;
    p = target.is_absolute() ? target : p.parent_path() / target;
  }
  return p;
}

}  // namespace

OutputFile::OutputFile(const std::string& path) : path_(path) {
  namespace fs = std::filesystem;
  if (path.empty()) throw std::runtime_error("an output file needs a name, got an empty one");
  const fs::path target = resolveLinks(path);
  std::error_code error;
  const fs::file_status status = fs::status(target, error);
  // A device, pipe or socket (/dev/null, /dev/stdout, a FIFO) is written as it is: there is no
  // old file to keep, and renaming over it would replace the device with a file.
  direct_ = fs::exists(status) && !fs::is_regular_file(status);
  // Otherwise beside the target, so that the rename stays within one file system and is atomic.
  temporary_ = direct_ ? target.string() : target.string() + ".partial-" + std::to_string(::getpid());
  target_ = target.string();
  file_ = std::fopen(temporary_.c_str(), "w");
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
