// The agents as a GPU backend holds them between steps, in device memory: what a viewer reads to
// draw them without copying them to the host (CUDA-OpenGL interop).
#pragma once

#include <cstddef>
#include <cstdint>

#include <crowd/kernels/profile_terms.hpp>
#include <crowd/kernels/vec2.hpp>
#include <crowd/kernels/vec3.hpp>

namespace crowd {

/// Device pointers in dense order; the radius and maxSpeed of agent i are terms[profile[i]].
template <class Vector>
struct DeviceAgentsOf {
  const Vector* position = nullptr;
  const Vector* velocity = nullptr;
  const std::uint32_t* profile = nullptr;
  const ProfileTerms* terms = nullptr;
  std::size_t count = 0;  ///< 0: no device state (the CPU backend, or the host changed it since).
};
using DeviceAgents = DeviceAgentsOf<Vec2>;
using DeviceAgents3 = DeviceAgentsOf<Vec3>;

}  // namespace crowd
