// Numbers as messages show them: short, and with exponents as people write them (1.2e30, 1e-6).
#pragma once

#include <string>

#include <crowd/kernels/vec2.hpp>

namespace crowd {

/// A float as the shortest text that reads back as the same float ("0.1", "1.2e30", "1e-6").
std::string formatFloat(float value);

/// A double to 10 significant digits ("2.5", "1e999" never: callers pass finite values).
std::string formatNumber(double value);

/// "[x, y]" with each coordinate as formatNumber writes it.
std::string formatVec2(Vec2 v);

}  // namespace crowd
