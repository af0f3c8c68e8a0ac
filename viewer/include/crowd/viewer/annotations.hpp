// What makes a picture explain itself, drawn over the scene: a legend saying what the agents'
// colours mean (with the ramp's scale, or a swatch per category) and what the marks are, a scale
// bar in metres, the simulated time, and marks where the exits, the agents' goals and the
// measurement areas and lines are. The same for the frames `render` writes and the window of
// `view`. Labels use a small built-in bitmap font, so nothing needs a font file or Dear ImGui.
// Needs a current GL context.
#pragma once

#include <cstdint>
#include <vector>

#include <crowd/viewer/camera.hpp>
#include <crowd/viewer/scene.hpp>

namespace crowd::viewer {

/// The annotations' colours, as 8-bit RGB: what tests look for in a picture. Marks differ from
/// the obstacles (filled grey) by being outlines, and from each other by colour and shape.
struct AnnotationPalette {
  static constexpr std::uint8_t kText[3] = {236, 238, 242};
  static constexpr std::uint8_t kScaleBar[3] = {236, 238, 242};
  static constexpr std::uint8_t kPanel[3] = {10, 11, 14};  ///< Behind the labels, 80% opaque.
  static constexpr std::uint8_t kExit[3] = {255, 70, 210};
  static constexpr std::uint8_t kGoal[3] = {255, 255, 255};
  static constexpr std::uint8_t kArea[3] = {60, 230, 110};
};

/// A box of whole pixels, from the top left: [x0, x1) x [y0, y1).
struct PixelBox {
  int x0 = 0, y0 = 0, x1 = 0, y1 = 0;
  bool contains(int x, int y) const { return x >= x0 && x < x1 && y >= y0 && y < y1; }
};

/// Where the annotations went in a picture.
struct AnnotationLayout {
  PixelBox legend;  ///< The legend's panel (top right).
  PixelBox scale;   ///< The scale bar's panel (bottom left).
  PixelBox clock;   ///< The simulated time's panel (bottom right).
  PixelBox bar;     ///< The scale bar itself, its ends at 0 and scaleMetres.
  double scaleMetres = 0.0;
  std::vector<PixelBox> marks;  ///< Round each mark drawn (exits, goals, areas, lines).
};

/// The length the scale bar shows: the longest of 1, 2 and 5 times a power of ten metres that
/// spans at most a fifth of `width` pixels at `pixelsPerUnit` (world units are metres).
double scaleBarMetres(float pixelsPerUnit, int width);

/// How many pixels a font pixel and the annotations' other sizes take: 1 up to 540 pixels
/// high, then one more for every 360 (2 at 720, 3 at 1080), so the labels stay readable.
int annotationScale(int height);

class Annotator {
 public:
  /// Compiles the program and makes the buffer. Throws std::runtime_error when a shader does not
  /// compile.
  Annotator();
  ~Annotator();
  Annotator(const Annotator&) = delete;
  Annotator& operator=(const Annotator&) = delete;

  /// Draws over the bound framebuffer (`width` x `height`, the scene drawn from `camera`): the
  /// scene's marks, the legend for `colorBy`, the scale bar and `time` (simulated seconds).
  AnnotationLayout draw(const Camera& camera, int width, int height, const StaticScene& scene,
                        ColorBy colorBy, double time);

 private:
  std::uint32_t program_ = 0, vao_ = 0, vbo_ = 0;
};

}  // namespace crowd::viewer
