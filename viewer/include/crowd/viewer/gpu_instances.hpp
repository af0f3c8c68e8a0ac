// CUDA-OpenGL interop: the renderer's instance buffer registered with CUDA and filled by a
// kernel straight from the CUDA backend's agent arrays (Simulator::deviceAgents), with no copy
// through the host. Built where the CUDA parts are; elsewhere available() is false.
#pragma once

#include <cstdint>
#include <string>

#include <crowd/simulator.hpp>
#include <crowd/viewer/scene.hpp>

namespace crowd::viewer {

class GpuInstances {
 public:
  /// Whether this build can fill instances on the GPU, and whether `colorBy` is one it can
  /// colour by there (speed and group; the others need the host).
  static bool available();
  static bool supports(ColorBy colorBy) { return colorBy == ColorBy::Speed || colorBy == ColorBy::Group; }

  GpuInstances() = default;
  ~GpuInstances();
  GpuInstances(const GpuInstances&) = delete;
  GpuInstances& operator=(const GpuInstances&) = delete;

  /// Writes agents.count instances into GL buffer `buffer` (at least that big; registered with
  /// CUDA on first use, and again when the buffer changes). Needs the GL context current and the
  /// device state unchanged while it runs. False, with `why`, when CUDA refuses.
  bool fill(std::uint32_t buffer, const DeviceAgents& agents, ColorBy colorBy, std::string& why);

 private:
  void release();
  std::uint32_t registered_ = 0;
  void* resource_ = nullptr;  // cudaGraphicsResource_t
};

}  // namespace crowd::viewer
