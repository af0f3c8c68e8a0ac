// Checks on the files a command will write, made before it runs so that a bad path cannot lose
// a finished run.
#pragma once

#include <filesystem>
#include <initializer_list>
#include <optional>
#include <string>

#include <CLI/CLI.hpp>

#include <crowd/output_file.hpp>

namespace crowd::cli {

/// Whether `a` and `b` name the same file, existing or not.
bool samePath(const std::filesystem::path& a, const std::filesystem::path& b);

/// Whether writing `path` puts the bytes where the process's standard output goes: "-",
/// /dev/stdout or another of the process's descriptors onto the same file or pipe, or the very
/// pipe or file stdout is (not a terminal or /dev/null named by its own path, where lines
/// interleaved break no file). A command's report then goes to stderr, so that what a reader
/// of stdout parses is the output alone.
bool writesToStdout(const std::string& path);

/// A check on a file option: a name was given ("--out ''" is refused, not taken as no --out).
inline const CLI::Validator kPathGiven(
    [](std::string& text) {
      return text.empty() ? std::string("expected a file name, got nothing") : std::string();
    },
    "");

/// An output file as the user named it: the option and its path (empty: not asked for).
struct OutputPath {
  const char* option;
  const std::string& path;
};

/// Every output asked for can be written (the file is writable, or its folder exists and takes
/// new files; a named pipe has a reader; /dev/stdout or /dev/fd/N is open), no two name the same
/// file, and none is one of `inputs` (`inputKind`, e.g. "the scenario file"; empty ones are
/// skipped), also where one is reached through a redirection of the process's own output, and
/// the temporary file each is written under can be made (OutputFile::checkCreatable). No output
/// is created or truncated. Throws ScenarioError.
void checkOutputPaths(std::initializer_list<OutputPath> outputs, std::initializer_list<std::string> inputs,
                      const char* inputKind);

/// Puts a command's outputs in place together (OutputFile::commitTogether; those not asked for
/// are empty) and prints "wrote PATH" for each.
void commitOutputs(std::initializer_list<std::optional<OutputFile>*> outputs);

}  // namespace crowd::cli
