#include <cmath>
#include <string>

#include <crowd/limits.hpp>

#include "params/number_text.hpp"

namespace crowd {
namespace {

std::string checkCoordinates(const float* coordinates, int count, const Limit& limit, const char* what) {
  const char* names[3] = {" x", " y", " z"};
  for (int i = 0; i < count; ++i) {
    const std::string problem = limitProblem(coordinates[i], limit);
    if (!problem.empty()) {
      return std::string(what) + names[i] + " " + problem + ", got " + formatFloat(coordinates[i]);
    }
  }
  return {};
}

std::string checkVector(Vec2 v, const Limit& limit, const char* what) {
  const float coordinates[2] = {v.x, v.y};
  return checkCoordinates(coordinates, 2, limit, what);
}

std::string checkVector(Vec3 v, const Limit& limit, const char* what) {
  const float coordinates[3] = {v.x, v.y, v.z};
  return checkCoordinates(coordinates, 3, limit, what);
}

}  // namespace

std::string limitProblem(double value, const Limit& limit) {
  if (!std::isfinite(value)) return "must be a finite number";
  // Made only for a message: a check that passes allocates nothing (bulk setters check every agent).
  const auto name = [&] { return std::string(" (") + limit.name + ")"; };
  // Symmetric limits (coordinates) read best as one range.
  if (limit.min == -limit.max && (value < limit.min || value > limit.max)) {
    return "must be between " + formatFloat(limit.min) + " and " + formatFloat(limit.max) + name();
  }
  // A lower bound of 0 is a matter of sign, not of size: no limit to name.
  if (value < limit.min) {
    return "must be >= " + formatFloat(limit.min) + (limit.min == 0.0f ? std::string() : name());
  }
  if (value > limit.max) return "must be <= " + formatFloat(limit.max) + name();
  return {};
}

std::string checkLimit(float value, const Limit& limit, const char* what) {
  const std::string problem = limitProblem(value, limit);
  if (problem.empty()) return {};
  return std::string(what) + " " + problem + ", got " + formatFloat(value);
}

std::string checkCoordinate(Vec2 point, const char* what) {
  return checkVector(point, limits::kCoordinate, what);
}

std::string checkVelocity(Vec2 velocity, const char* what) {
  return checkVector(velocity, limits::kVelocity, what);
}

std::string checkCoordinate(Vec3 point, const char* what) {
  return checkVector(point, limits::kCoordinate, what);
}

std::string checkVelocity(Vec3 velocity, const char* what) {
  return checkVector(velocity, limits::kVelocity, what);
}

}  // namespace crowd
