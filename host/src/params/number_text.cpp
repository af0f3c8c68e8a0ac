#include "params/number_text.hpp"

#include <charconv>
#include <cstdio>
#include <cstring>
#include <string>

namespace crowd {
namespace {

// "1.2e+30" -> "1.2e30", "1e-06" -> "1e-6": exponents as people write them. Built char by
// char: GCC 12 warns falsely (-Wrestrict) on small std::string assignments here.
std::string tidyExponent(const char* text) {
  const char* e = std::strchr(text, 'e');
  if (e == nullptr) return text;
  std::string out(text, e + 1);
  const char* digits = e + 1;
  if (*digits == '-') out.push_back('-');
  if (*digits == '-' || *digits == '+') ++digits;
  while (digits[0] == '0' && digits[1] != '\0') ++digits;
  out.append(digits);
  return out;
}

}  // namespace

std::string formatFloat(float value) {
  char text[32];
  const auto result = std::to_chars(text, text + sizeof text - 1, value);
  *result.ptr = '\0';
  return tidyExponent(text);
}

std::string formatNumber(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.10g", value);
  return tidyExponent(text);
}

std::string formatVec2(Vec2 v) {
  // Appended piece by piece: GCC 12 at -O3 warns falsely (-Wrestrict) on "[" + std::string.
  std::string text = "[";
  text += formatNumber(v.x);
  text += ", ";
  text += formatNumber(v.y);
  text += "]";
  return text;
}

}  // namespace crowd
