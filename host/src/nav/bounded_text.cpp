#include "nav/bounded_text.hpp"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <vector>

#include <crowd/grid_map.hpp>

namespace crowd::nav_io {

std::string readBoundedText(const std::string& path, const TextBounds& bounds) {
  const std::string what = bounds.what;
  std::error_code error;
  if (std::filesystem::is_directory(path, error)) {
    throw GridMapError(path, 0, 0, "is a folder; expected a " + what + " file");
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) throw GridMapError(path, 0, 0, "cannot read the " + what + ": " + std::strerror(errno));
  std::string text;
  std::vector<char> chunk(std::size_t{1} << 16);
  int line = 1;
  std::size_t lineStart = 0;
  while (in) {
    in.read(chunk.data(), static_cast<std::streamsize>(chunk.size()));
    const auto got = static_cast<std::size_t>(in.gcount());
    if (got == 0) break;
    if (text.size() + got > bounds.maxBytes) {
      throw GridMapError(path, 0, 0,
                         "more than " + std::to_string(bounds.maxBytes) + " bytes, the most a " + what +
                             " file may hold (" + bounds.why + "); refused before reading further");
    }
    const std::size_t from = text.size();
    text.append(chunk.data(), got);
    for (const char* p = text.data() + from;
         (p = static_cast<const char*>(
              std::memchr(p, '\n', static_cast<std::size_t>(text.data() + text.size() - p))));
         ++p) {
      ++line;
      lineStart = static_cast<std::size_t>(p - text.data()) + 1;
    }
    if (text.size() - lineStart > bounds.maxLine + 1) {  // + 1: a CR before the newline.
      throw GridMapError(path, line, 0,
                         "the line is longer than " + std::to_string(bounds.maxLine) + " bytes, the most a " +
                             what + " line may hold (" + bounds.why + "); refused before reading further");
    }
  }
  if (in.bad()) throw GridMapError(path, 0, 0, "cannot read the " + what + ": " + std::strerror(errno));
  return text;
}

}  // namespace crowd::nav_io
