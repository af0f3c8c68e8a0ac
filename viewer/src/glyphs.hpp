// Text as rectangles of pixels, for labels drawn over a picture by the same program that draws
// its other shapes (annotations.cpp).
#pragma once

#include <string_view>
#include <vector>

namespace crowd::viewer {

/// A rectangle in pixels, from the top left: [x0, x1) x [y0, y1).
struct PixelRect {
  float x0, y0, x1, y1;
};

/// Rows of font pixels a line of text takes, capitals and descenders included.
inline constexpr float kTextHeight = 10.0f;

/// The width of `text` in pixels, each font pixel `scale` pixels wide.
float textWidth(std::string_view text, float scale);

/// Appends the rectangles that draw `text` with its top left at (x, y).
void appendText(std::string_view text, float x, float y, float scale, std::vector<PixelRect>& out);

}  // namespace crowd::viewer
