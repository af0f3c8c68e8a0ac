// Small helpers shared by `view` and `render`.
#pragma once

#include <stdexcept>
#include <string>

#include <crowd/simulator.hpp>
#include <crowd/viewer/scene.hpp>

namespace crowd::cli {

struct PictureSize {
  int width;
  int height;
};

/// "WIDTHxHEIGHT", each 16 to 16384. Throws std::invalid_argument.
inline PictureSize parseSize(const std::string& text) {
  const std::size_t x = text.find('x');
  try {
    if (x == std::string::npos) throw std::invalid_argument("no x");
    std::size_t used = 0;
    const int w = std::stoi(text.substr(0, x), &used);
    if (used != x) throw std::invalid_argument("width");
    const int h = std::stoi(text.substr(x + 1), &used);
    if (used != text.size() - x - 1) throw std::invalid_argument("height");
    if (w < 16 || h < 16 || w > 16384 || h > 16384) throw std::invalid_argument("range");
    return PictureSize{w, h};
  } catch (const std::exception&) {
    throw std::invalid_argument("--size " + text + ": expected WIDTHxHEIGHT, each 16 to 16384 pixels (e.g. 1280x720)");
  }
}

inline BackendKind backendKind(const std::string& name) {
  return name == "cuda" ? BackendKind::Cuda : name == "cpu" ? BackendKind::Cpu : BackendKind::Auto;
}

inline viewer::ColorBy colorByNamed(const std::string& name) {
  for (std::size_t k = 0; k < viewer::kColorByNames.size(); ++k) {
    if (name == viewer::kColorByNames[k]) return static_cast<viewer::ColorBy>(k);
  }
  throw std::invalid_argument("--color-by " + name + ": expected speed, group, behavior or density");
}

}  // namespace crowd::cli
