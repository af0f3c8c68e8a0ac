#include "output_paths.hpp"

#include <unistd.h>

#include <cerrno>
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
    if (access(target.c_str(), W_OK) != 0) throw ScenarioError(where + "cannot write: " + std::strerror(errno));
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

// Where an output goes, for telling two apart: its target file, or for the process's own
// descriptors and devices, nothing to compare (two outputs may share /dev/null or a terminal).
std::optional<std::filesystem::path> comparable(const std::string& path, const std::filesystem::path& target) {
  std::error_code error;
  if (ownDescriptor(path) >= 0 || std::filesystem::is_character_file(target, error)) return std::nullopt;
  return target;
}

}  // namespace

bool samePath(const std::filesystem::path& a, const std::filesystem::path& b) {
  std::error_code error;
  if (std::filesystem::equivalent(a, b, error)) return true;
  std::error_code errorA;
  std::error_code errorB;
  // Made absolute first: a relative path none of whose parts exist would stay as written.
  const std::filesystem::path canonicalA = std::filesystem::weakly_canonical(std::filesystem::absolute(a), errorA);
  const std::filesystem::path canonicalB = std::filesystem::weakly_canonical(std::filesystem::absolute(b), errorB);
  return !errorA && !errorB && canonicalA == canonicalB;
}

void checkOutputPaths(std::initializer_list<OutputPath> outputs, const std::string& input, const char* inputKind) {
  std::vector<std::pair<const OutputPath*, std::filesystem::path>> checked;
  for (const OutputPath& out : outputs) {
    if (out.path.empty() || ownDescriptor(out.path) >= 0) continue;
    std::filesystem::path target;
    try {
      target = outputTarget(out.path);
    } catch (const std::runtime_error& e) {
      throw ScenarioError(std::string(out.option) + " " + e.what());
    }
    checkWritable(out.option, out.path, target);
    const std::optional<std::filesystem::path> where = comparable(out.path, target);
    if (!where) continue;
    if (!input.empty() && samePath(*where, input)) {
      throw ScenarioError(std::string(out.option) + " " + out.path + ": is " + inputKind + "; writing it would overwrite it");
    }
    for (const auto& [earlier, earlierTarget] : checked) {
      if (samePath(*where, earlierTarget)) {
        throw ScenarioError(std::string(earlier->option) + " and " + out.option + " name the same file (" + out.path +
                            "); give each its own");
      }
    }
    checked.emplace_back(&out, *where);
  }
}

}  // namespace crowd::cli
