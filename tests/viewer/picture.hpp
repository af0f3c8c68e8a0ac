// A picture read back from a framebuffer, as the viewer's pixel tests look at it: a pixel's
// colour, within a tolerance, and colours counted in a box.
#pragma once

#include <cstdint>
#include <cstdlib>
#include <vector>

#include <crowd/viewer/annotations.hpp>
#include <crowd/viewer/renderer.hpp>

namespace crowd::viewer::test {

struct Picture {
  int width = 0, height = 0;
  std::vector<std::uint8_t> rgb;
  const std::uint8_t* at(int x, int y) const { return &rgb[(static_cast<std::size_t>(y) * width + x) * 3]; }
  bool is(int x, int y, const std::uint8_t (&c)[3], int tolerance = 0) const {
    const std::uint8_t* p = at(x, y);
    for (int k = 0; k < 3; ++k) {
      if (std::abs(static_cast<int>(p[k]) - static_cast<int>(c[k])) > tolerance) return false;
    }
    return true;
  }
  bool same(const Picture& other, int x, int y) const {
    const std::uint8_t* a = at(x, y);
    const std::uint8_t* b = other.at(x, y);
    return a[0] == b[0] && a[1] == b[1] && a[2] == b[2];
  }
  // Pixels of colour `c` in `box`.
  int count(const PixelBox& box, const std::uint8_t (&c)[3], int tolerance = 2) const {
    int n = 0;
    for (int y = box.y0; y < box.y1; ++y) {
      for (int x = box.x0; x < box.x1; ++x) n += is(x, y, c, tolerance) ? 1 : 0;
    }
    return n;
  }
  // Neither background nor obstacle: an agent's pixel.
  bool agent(int x, int y) const {
    return !is(x, y, Palette::kBackground, 2) && !is(x, y, Palette::kObstacle, 2);
  }
};

}  // namespace crowd::viewer::test
