// A circular obstacle, as the detection box sees it (ORCA sees the polygon drawn round it).
#pragma once

#include "vec2.hpp"

namespace crowd {

struct CircleObstacle {
  Vec2 center;
  float radius;
};

}  // namespace crowd
