// Vectors equal to a tolerance in each coordinate, with both printed when they are not.
#pragma once

#include <cmath>

#include <gtest/gtest.h>

#include <crowd/kernels/vec2.hpp>

namespace crowd::test {

inline testing::AssertionResult near(Vec2 actual, Vec2 expected, float tolerance = 1e-6f) {
  if (std::fabs(actual.x - expected.x) <= tolerance && std::fabs(actual.y - expected.y) <= tolerance) {
    return testing::AssertionSuccess();
  }
  return testing::AssertionFailure() << "(" << actual.x << ", " << actual.y << ") is not within " << tolerance
                                     << " of (" << expected.x << ", " << expected.y << ")";
}

}  // namespace crowd::test
