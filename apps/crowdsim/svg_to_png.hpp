// PNG copies of the pictures crowdsim draws as SVG, for pages and tools that do not show SVG. The
// drawing is rsvg-convert's (Debian's librsvg2-bin), run as a separate program, as ffmpeg makes
// the viewer's videos; crowdsim itself stays free of an SVG renderer.
#pragma once

#include <string>

namespace crowd::cli {

/// Draws `svg` into `png` at `scale` times its size on a white background. Returns an empty
/// string on success, else what went wrong (rsvg-convert missing, with how to install it, or its
/// failure).
std::string svgToPng(const std::string& svg, const std::string& png, double scale = 2.0);

}  // namespace crowd::cli
