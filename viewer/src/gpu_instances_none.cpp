// GpuInstances in a build without the CUDA parts: never available (gpu_instances.hpp).
#include <crowd/viewer/gpu_instances.hpp>

namespace crowd::viewer {

bool GpuInstances::available() {
  return false;
}
GpuInstances::~GpuInstances() = default;
void GpuInstances::release() {}
bool GpuInstances::fill(std::uint32_t, const DeviceAgents&, ColorBy, std::string& why) {
  why = "this build has no CUDA parts";
  return false;
}

}  // namespace crowd::viewer
