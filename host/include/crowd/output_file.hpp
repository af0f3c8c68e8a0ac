// An output file that replaces its path only when complete: written under a temporary name in
// the same folder and renamed into place by commit(). A run that fails, or is interrupted,
// leaves the old file (if any) untouched and no truncated file behind. A symbolic link is
// followed (its target replaced, the link kept); a device or pipe (/dev/null, /dev/stdout) is
// written directly.
#pragma once

#include <cstdio>
#include <string>

namespace crowd {

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
