// Text put into the SVG pictures the commands draw (realism, measure): the characters XML
// reserves, escaped, so that a file or area name cannot break the picture.
#pragma once

#include <string>

namespace crowd::cli {

inline std::string escapeXml(const std::string& text) {
  std::string out;
  for (const char c : text) {
    switch (c) {
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '&':
        out += "&amp;";
        break;
      case '"':
        out += "&quot;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

}  // namespace crowd::cli
