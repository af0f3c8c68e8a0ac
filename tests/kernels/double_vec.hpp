// Double-precision 2D vectors for checking the float kernels against exact-enough geometry.
#pragma once

#include <cmath>

#include <crowd/kernels/linear_program.hpp>

namespace kernel_test {

struct D2 {
  double x;
  double y;
};

inline D2 toD(crowd::Vec2 v) {
  return D2{v.x, v.y};
}
inline D2 operator+(D2 a, D2 b) {
  return D2{a.x + b.x, a.y + b.y};
}
inline D2 operator-(D2 a, D2 b) {
  return D2{a.x - b.x, a.y - b.y};
}
inline D2 operator*(double s, D2 a) {
  return D2{s * a.x, s * a.y};
}
inline double dotD(D2 a, D2 b) {
  return a.x * b.x + a.y * b.y;
}
inline double detD(D2 a, D2 b) {
  return a.x * b.y - a.y * b.x;
}
inline double lenD(D2 a) {
  return std::sqrt(dotD(a, a));
}

/// Signed distance by which velocity v violates the line (> 0: forbidden side).
inline double violation(const crowd::OrcaLine& line, D2 v) {
  return detD(toD(line.direction), toD(line.point) - v);
}

}  // namespace kernel_test
