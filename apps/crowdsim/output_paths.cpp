// Checks on the files a command will write (output_paths.hpp): writable, distinct, none an input,
// made before anything runs and without creating or truncating any file.
#include "output_paths.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <optional>
#include <stdexcept>
#include <utility>
#include <vector>

#include <crowd/output_file.hpp>
#include <crowd/scenario.hpp>

namespace crowd::cli {
namespace {

// The file `path` will be written as (through its links), checked as checkOutputPaths says.
void checkWritable(const std::string& option, const std::string& path, const std::filesystem::path& target) {
  namespace fs = std::filesystem;
  const std::string where = option + " " + path + ": ";
  std::error_code error;
  const fs::file_status status = fs::status(target, error);
  if (fs::exists(status)) {
    if (fs::is_directory(status)) throw ScenarioError(where + "is a folder, not a file");
    if (access(target.c_str(), W_OK) != 0)
      throw ScenarioError(where + "cannot write: " + std::strerror(errno));
    return;
  }
  const fs::path folder = target.parent_path().empty() ? fs::path(".") : target.parent_path();
  const fs::file_status folderStatus = fs::status(folder, error);
  if (!fs::exists(folderStatus)) {
    throw ScenarioError(where + "the folder " + folder.string() + " does not exist");
  }
  if (!fs::is_directory(folderStatus)) throw ScenarioError(where + folder.string() + " is not a folder");
  if (access(folder.c_str(), W_OK | X_OK) != 0) {
    throw ScenarioError(where + "cannot create a file in " + folder.string() + ": " + std::strerror(errno));
  }
}

// What an output or input is, for telling two apart: the file (device and inode) where it exists
// as a regular file, and the path it will be at. Neither, for a device, pipe or terminal, which
// two outputs may share (/dev/null).
struct Identity {
  std::optional<std::pair<dev_t, ino_t>> node;
  std::optional<std::filesystem::path> path;

  bool same(const Identity& other) const {
    if (node && other.node) return *node == *other.node;
    return path && other.path && samePath(*path, *other.path);
  }
};

Identity fileIdentity(const std::filesystem::path& path) {
  Identity id;
  struct stat info {};
  if (::stat(path.c_str(), &info) == 0) {
    if (!S_ISREG(info.st_mode)) return id;
    id.node = std::make_pair(info.st_dev, info.st_ino);
  }
  id.path = path;
  return id;
}

// An output to one of the process's own descriptors: it must be open now (before any file of
// the run takes its number); a regular file behind it (a redirection) is compared with the rest.
Identity descriptorIdentity(const OutputPath& out, int fd) {
  struct stat info {};
  if (::fstat(fd, &info) != 0) {
    throw ScenarioError(std::string(out.option) + " " + out.path + ": descriptor " + std::to_string(fd) +
                        " is not open");
  }
  Identity id;
  if (S_ISREG(info.st_mode)) id.node = std::make_pair(info.st_dev, info.st_ino);
  return id;
}

// A named pipe that nobody reads would block the run's end for good: refused now.
void requireReader(const OutputPath& out, const std::filesystem::path& target) {
  std::error_code error;
  if (!std::filesystem::is_fifo(target, error)) return;
  const int fd = ::open(target.c_str(), O_WRONLY | O_NONBLOCK);
  if (fd < 0 && errno == ENXIO) {
    throw ScenarioError(std::string(out.option) + " " + out.path + ": a named pipe that nothing reads");
  }
  if (fd >= 0) ::close(fd);
}

}  // namespace

bool writesToStdout(const std::string& path) {
  if (path.empty()) return false;
  struct stat out {};
  const int standardOutput = standardOutputDescriptor();
  if (::fstat(standardOutput, &out) != 0) return false;
  struct stat written {};
  if (const int fd = ownDescriptor(path); fd >= 0) {
    return fd == standardOutput ||
           (::fstat(fd, &written) == 0 && written.st_dev == out.st_dev && written.st_ino == out.st_ino);
  }
  return ::stat(path.c_str(), &written) == 0 && !S_ISCHR(written.st_mode) && written.st_dev == out.st_dev &&
         written.st_ino == out.st_ino;
}

bool samePath(const std::filesystem::path& a, const std::filesystem::path& b) {
  std::error_code error;
  if (std::filesystem::equivalent(a, b, error)) return true;
  std::error_code errorA;
  std::error_code errorB;
  // Made absolute first: a relative path none of whose parts exist would stay as written.
  const std::filesystem::path canonicalA =
      std::filesystem::weakly_canonical(std::filesystem::absolute(a), errorA);
  const std::filesystem::path canonicalB =
      std::filesystem::weakly_canonical(std::filesystem::absolute(b), errorB);
  return !errorA && !errorB && canonicalA == canonicalB;
}

void checkOutputPaths(std::initializer_list<OutputPath> outputs, std::initializer_list<std::string> inputs,
                      const char* inputKind) {
  std::vector<Identity> sources;
  for (const std::string& input : inputs) {
    if (!input.empty()) sources.push_back(fileIdentity(input));
  }
  std::vector<std::pair<const OutputPath*, Identity>> checked;
  for (const OutputPath& out : outputs) {
    if (out.path.empty()) continue;
    Identity id;
    if (const int fd = ownDescriptor(out.path); fd >= 0) {
      id = descriptorIdentity(out, fd);
    } else {
      std::filesystem::path target;
      try {
        target = outputTarget(out.path);
      } catch (const std::runtime_error& e) {
        throw ScenarioError(std::string(out.option) + " " + e.what());
      }
      checkWritable(out.option, out.path, target);
      requireReader(out, target);
      try {
        OutputFile::checkCreatable(out.path);
      } catch (const std::runtime_error& e) {
        throw ScenarioError(std::string(out.option) + " " + e.what());
      }
      id = fileIdentity(target);
    }
    for (const Identity& source : sources) {
      if (!id.same(source)) continue;
      throw ScenarioError(std::string(out.option) + " " + out.path + ": is " + inputKind +
                          "; writing it would overwrite it");
    }
    for (const auto& [earlier, earlierId] : checked) {
      if (id.same(earlierId)) {
        throw ScenarioError(std::string(earlier->option) + " and " + out.option + " name the same file (" +
                            out.path + "); give each its own");
      }
    }
    checked.emplace_back(&out, id);
  }
}

void commitOutputs(std::initializer_list<std::optional<OutputFile>*> outputs) {
  std::vector<OutputFile*> files;
  for (std::optional<OutputFile>* output : outputs) {
    if (*output) files.push_back(&**output);
  }
  OutputFile::commitTogether(files);
  for (const OutputFile* file : files) std::printf("wrote %s\n", file->path().c_str());
}

}  // namespace crowd::cli
