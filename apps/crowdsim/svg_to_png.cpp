// PNG copies of SVG pictures (svg_to_png.hpp).
#include "svg_to_png.hpp"

#include <spawn.h>
#include <sys/wait.h>

#include <cerrno>
#include <cstring>
#include <vector>

extern char** environ;

namespace crowd::cli {

std::string svgToPng(const std::string& svg, const std::string& png, double scale) {
  // Arguments passed as they are (no shell), so any file name is safe.
  const std::string zoom = std::to_string(scale);
  std::vector<std::string> args{"rsvg-convert", "--zoom",   zoom, "--background-color",
                                "white",        "--output", png,  svg};
  std::vector<char*> argv;
  for (std::string& arg : args) argv.push_back(arg.data());
  argv.push_back(nullptr);
  pid_t pid = 0;
  const int spawned = posix_spawnp(&pid, "rsvg-convert", nullptr, nullptr, argv.data(), environ);
  if (spawned == ENOENT) return "PNG pictures need rsvg-convert (apt-get install librsvg2-bin)";
  if (spawned != 0) return std::string("cannot run rsvg-convert: ") + std::strerror(spawned);
  int status = 0;
  if (waitpid(pid, &status, 0) < 0) return std::string("rsvg-convert: ") + std::strerror(errno);
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) return "rsvg-convert could not draw " + svg;
  return {};
}

}  // namespace crowd::cli
