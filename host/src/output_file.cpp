#include <crowd/output_file.hpp>

#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>

namespace crowd {

OutputFile::OutputFile(const std::string& path) : path_(path) {
  // Beside the target, so that the rename stays within one file system and is atomic.
  temporary_ = path + ".partial-" + std::to_string(::getpid());
  file_ = std::fopen(temporary_.c_str(), "w");
  if (file_ == nullptr) throw std::runtime_error(path + ": cannot open for writing: " + std::strerror(errno));
}

OutputFile::~OutputFile() {
  if (file_ == nullptr) return;
  std::fclose(file_);
  std::remove(temporary_.c_str());
}

void OutputFile::commit() {
  if (file_ == nullptr) throw std::runtime_error(path_ + ": already written");
  const bool failed = std::ferror(file_) != 0;
  const bool closeFailed = std::fclose(file_) != 0;
  file_ = nullptr;
  if (failed || closeFailed) {
    std::remove(temporary_.c_str());
    throw std::runtime_error(path_ + ": writing failed (disk full?); the old file, if any, is kept");
  }
  if (std::rename(temporary_.c_str(), path_.c_str()) != 0) {
    const std::string reason = std::strerror(errno);
    std::remove(temporary_.c_str());
    throw std::runtime_error(path_ + ": cannot put the file in place: " + reason);
  }
}

}  // namespace crowd
