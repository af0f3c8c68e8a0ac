// An output file that replaces its path only when complete: written under a temporary name in
// the same folder and renamed into place by commit(). A run that fails, or is interrupted,
// leaves the old file (if any) untouched and no truncated file behind. A symbolic link is
// followed (its target replaced, the link kept); a device or pipe (/dev/null, a FIFO) is written
// directly, and one of the process's own descriptors (/dev/stdout or "-", /dev/fd/3) through a copy of
// it, as the shell set it up (appending, into a pipe).
#pragma once

#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

namespace crowd {

/// Where writing `path` puts the file: `path` through its symbolic links (relative targets from
/// the link's folder). Throws std::runtime_error for a loop of links.
std::filesystem::path outputTarget(const std::string& path);

/// The descriptor `path` names when it is one of the process's own ("-" or /dev/stdout for
/// standard output, /dev/stderr, /dev/fd/N, /proc/self/fd/N, or a link to one), else -1.
int ownDescriptor(const std::string& path);

/// Keeps the process's standard output for the files named "-" or /dev/stdout, and sends
/// whatever the process prints there from now on to standard error: for a command whose output
/// file is read from stdout, so that its report never mixes with the file. ownDescriptor then
/// names the kept descriptor for standard output. Does nothing when called again, or when the
/// descriptors cannot be copied (the report then stays where it was).
void keepStandardOutputForFiles();

/// The descriptor files written to standard output go to: STDOUT_FILENO, or the one
/// keepStandardOutputForFiles kept.
int standardOutputDescriptor();

class OutputFile {
 public:
  /// Whether the temporary file for `path` (a regular file or a new one) can be made: it is
  /// created and removed at once, so that a file that is writable in a folder that takes no
  /// new files is refused before any work rather than after it. Throws std::runtime_error
  /// saying why; does nothing for a device, pipe or one of the process's own descriptors.
  static void checkCreatable(const std::string& path);

  /// Creates the temporary file. Throws std::runtime_error naming `path` if it cannot.
  explicit OutputFile(const std::string& path);
  /// Removes the temporary file unless commit() succeeded.
  ~OutputFile();
  OutputFile(const OutputFile&) = delete;
  OutputFile& operator=(const OutputFile&) = delete;

  std::FILE* stream() { return file_; }
  const std::string& path() const { return path_; }
  /// The file actually written until commit(): the temporary one, or the path itself for a
  /// device. A writer that needs a name (a database library) opens this; stream() then stays
  /// unwritten.
  const std::string& writtenPath() const { return temporary_; }
  /// Flushes, closes and renames the file into place; throws std::runtime_error if any write
  /// failed (a full disk, say) or the rename did, leaving the old file as it was (commitTogether
  /// for this one file).
  void commit();

  /// The outputs of one piece of work, put in place together or not at all: every file is
  /// flushed and closed first (a failed write throws before any is renamed), then each is
  /// renamed into place; a rename that fails puts back the old files of those already renamed.
  /// A stop requested meanwhile (crowd/stop_request.hpp) throws Interrupted before the first
  /// rename. Null entries are skipped. On a throw every temporary file is removed.
  static void commitTogether(const std::vector<OutputFile*>& files);

 private:
  /// Flushes and closes the file; throws as commit() does if any write failed.
  void finish();
  /// Renames the finished file into place; false (errno set) if the rename failed.
  bool place();

  std::string path_;
  std::string target_;     ///< path_ through its symbolic links.
  std::string temporary_;  ///< What is written: beside target_, or target_ itself when direct_.
  bool direct_ = false;
  bool finished_ = false;  ///< Closed, its temporary file waiting to be renamed into place.
  std::FILE* file_ = nullptr;
};

}  // namespace crowd
