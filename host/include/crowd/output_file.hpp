// An output file that replaces its path only when complete: written under a temporary name in
// the same folder and renamed into place by commit(). A run that fails, or is interrupted,
// leaves the old file (if any) untouched and no truncated file behind. A symbolic link is
// followed (its target replaced, the link kept); a device or pipe (/dev/null, a FIFO) is written
// directly, and one of the process's own descriptors (/dev/stdout, /dev/fd/3) through a copy of
// it, as the shell set it up (appending, into a pipe).
#pragma once

#include <cstdio>
#include <filesystem>
#include <string>

namespace crowd {

/// Where writing `path` puts the file: `path` through its symbolic links (relative targets from
/// the link's folder). Throws std::runtime_error for a loop of links.
std::filesystem::path outputTarget(const std::string& path);

/// The descriptor `path` names when it is one of the process's own (/dev/stdout, /dev/stderr,
/// /dev/fd/N, /proc/self/fd/N, or a link to one), else -1.
int ownDescriptor(const std::string& path);

class OutputFile {
 public:
  /// Creates the temporary file. Throws std::runtime_error naming `path` if it cannot.
  explicit OutputFile(const std::string& path);
  /// Removes the temporary file unless commit() succeeded.
  ~OutputFile();
  OutputFile(const OutputFile&) = delete;
  OutputFile& operator=(const OutputFile&) = delete;

  std::FILE* stream() { return file_; }
  const std::string& path() const { return path_; }
  /// Flushes, closes and renames the file into place; throws std::runtime_error if any write
  /// failed (a full disk, say) or the rename did, leaving the old file as it was.
  void commit();

 private:
  std::string path_;
  std::string target_;     ///< path_ through its symbolic links.
  std::string temporary_;  ///< What is written: beside target_, or target_ itself when direct_.
  bool direct_ = false;
  std::FILE* file_ = nullptr;
};

}  // namespace crowd
