// Reading a map or a .scen file whole, from a file, a pipe or a device, with bounds on its size
// and on its lines checked as it comes in: an input that never ends (/dev/zero, an endless
// pipe) is refused with the numbers before it takes the machine's memory.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace crowd::nav_io {

struct TextBounds {
  std::uint64_t maxBytes = 0;  ///< The whole text.
  std::size_t maxLine = 0;     ///< One line, its end of line excluded.
  const char* what = "";       ///< "map" or "scenario", for messages.
  const char* why = "";        ///< What the bounds follow from, for messages.
};

/// The text of `path`. Throws GridMapError naming the path (and the line, for a line too long)
/// for a folder, a file that cannot be read, or text past the bounds.
std::string readBoundedText(const std::string& path, const TextBounds& bounds);

}  // namespace crowd::nav_io
