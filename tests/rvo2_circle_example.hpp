// Where RVO2's Circle example (examples/Circle.cc) puts agent i of 250, for tests that compare
// generated circles with it.
#pragma once

#include <cmath>
#include <cstddef>
#include <numbers>

#include <crowd/kernels/vec2.hpp>

namespace crowd {

/// 200.0f * Vector2(std::cos(i * 2.0f * M_PI / 250.0f), std::sin(...)), with M_PI spelled
/// std::numbers::pi (the same double); the agent's goal is the negation.
inline Vec2 rvo2CirclePosition(std::size_t i) {
  const float angleFactor = static_cast<float>(i) * 2.0f;
  return 200.0f * Vec2(static_cast<float>(std::cos(angleFactor * std::numbers::pi / 250.0f)),
                       static_cast<float>(std::sin(angleFactor * std::numbers::pi / 250.0f)));
}

}  // namespace crowd
