#include "output_paths.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <vector>

#include <crowd/scenario.hpp>

namespace crowd::cli {
namespace {

void checkWritable(const std::string& option, const std::string& path) {
  namespace fs = std::filesystem;
  const std::string where = option + " " + path + ": ";
  std::error_code error;
  const fs::file_status status = fs::status(path, error);
  if (fs::exists(status)) {
    if (fs::is_directory(status)) throw ScenarioError(where + "is a folder, not a file");
    if (access(path.c_str(), W_OK) != 0) throw ScenarioError(where + "cannot write: " + std::strerror(errno));
    return;
  }
  const fs::path folder = fs::path(path).parent_path().empty() ? fs::path(".") : fs::path(path).parent_path();
  const fs::file_status folderStatus = fs::status(folder, error);
  if (!fs::exists(folderStatus)) {
    throw ScenarioError(where + "the folder " + folder.string() + " does not exist");
  }
  if (!fs::is_directory(folderStatus)) throw ScenarioError(where + folder.string() + " is not a folder");
  if (access(folder.c_str(), W_OK | X_OK) != 0) {
    throw ScenarioError(where + "cannot create a file in " + folder.string() + ": " + std::strerror(errno));
  }
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
  std::vector<const OutputPath*> checked;
  for (const OutputPath& out : outputs) {
    if (out.path.empty()) continue;
    checkWritable(out.option, out.path);
    if (!input.empty() && samePath(out.path, input)) {
      throw ScenarioError(std::string(out.option) + " " + out.path + ": is " + inputKind + "; writing it would overwrite it");
    }
    for (const OutputPath* earlier : checked) {
      if (samePath(out.path, earlier->path)) {
        throw ScenarioError(std::string(earlier->option) + " and " + out.option + " name the same file (" + out.path +
                            "); give each its own");
      }
    }
    checked.push_back(&out);
  }
}

}  // namespace crowd::cli
