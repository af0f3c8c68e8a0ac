// Text from a user's file as messages show it (file_text.hpp).
#include "params/file_text.hpp"

#include <cstdio>

namespace crowd {

std::string describeByte(char c) {
  const auto code = static_cast<unsigned char>(c);
  if (code >= 0x21 && code < 0x7f) return std::string("'") + c + "'";
  char buffer[16];
  std::snprintf(buffer, sizeof buffer, "byte 0x%02x", code);
  return buffer;
}

std::string quotedFileText(std::string_view text) {
  std::string out = "'";
  for (const char c : text) {
    const auto code = static_cast<unsigned char>(c);
    if (code >= 0x20 && code < 0x7f) {
      out += c;
    } else {
      // Piece by piece: GCC 12 warns falsely (-Wrestrict) on "[" + std::string.
      out += '[';
      out += describeByte(c);
      out += ']';
    }
  }
  return out + "'";
}

}  // namespace crowd
