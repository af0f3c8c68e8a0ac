// CUDA-OpenGL interop (gpu_instances.hpp): one thread per agent writes its instance.
#include <cuda_gl_interop.h>
#include <cuda_runtime.h>

#include <crowd/viewer/gpu_instances.hpp>

namespace crowd::viewer {
namespace {

// The same instance as captureAgents writes on the host (scene.cpp).
__global__ void fillInstances(DeviceAgents agents, int colorBy, AgentInstance* out) {
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= agents.count) return;
  const Vec2 p = agents.position[i];
  const Vec2 v = agents.velocity[i];
  const std::uint32_t profile = agents.profile[i];
  const ProfileTerms& t = agents.terms[profile];
  const float speed = sqrtf(v.x * v.x + v.y * v.y);
  AgentInstance a;
  a.x = p.x;
  a.y = p.y;
  a.hx = speed > 1e-6f ? v.x / speed : 0.0f;
  a.hy = speed > 1e-6f ? v.y / speed : 0.0f;
  a.radius = t.radius;
  a.value = colorBy == static_cast<int>(ColorBy::Group)
                ? static_cast<float>(profile % 16u) / 16.0f
                : (t.maxSpeed > 0.0f ? fminf(speed / t.maxSpeed, 1.0f) : 0.0f);
  out[i] = a;
}

bool failed(cudaError_t error, const char* what, std::string& why) {
  if (error == cudaSuccess) return false;
  why = std::string(what) + ": " + cudaGetErrorString(error);
  return true;
}

}  // namespace

bool GpuInstances::available() {
  return true;
}

GpuInstances::~GpuInstances() {
  release();
}

void GpuInstances::release() {
  if (resource_ != nullptr) cudaGraphicsUnregisterResource(static_cast<cudaGraphicsResource_t>(resource_));
  resource_ = nullptr;
  registered_ = 0;
}

bool GpuInstances::fill(std::uint32_t buffer, const DeviceAgents& agents, ColorBy colorBy, std::string& why) {
  if (agents.count == 0) return true;
  if (buffer != registered_) {
    release();
    cudaGraphicsResource_t resource = nullptr;
    if (failed(cudaGraphicsGLRegisterBuffer(&resource, buffer, cudaGraphicsRegisterFlagsWriteDiscard),
               "cudaGraphicsGLRegisterBuffer", why)) {
      return false;
    }
    resource_ = resource;
    registered_ = buffer;
  }
  auto resource = static_cast<cudaGraphicsResource_t>(resource_);
  if (failed(cudaGraphicsMapResources(1, &resource), "cudaGraphicsMapResources", why)) return false;
  void* data = nullptr;
  std::size_t bytes = 0;
  bool ok = !failed(cudaGraphicsResourceGetMappedPointer(&data, &bytes, resource),
                    "cudaGraphicsResourceGetMappedPointer", why);
  if (ok && bytes < agents.count * sizeof(AgentInstance)) {
    why = "the GL buffer is smaller than the agents";
    ok = false;
  }
  if (ok) {
    const int block = 256;
    const auto blocks = static_cast<unsigned>((agents.count + block - 1) / block);
    fillInstances<<<blocks, block>>>(agents, static_cast<int>(colorBy), static_cast<AgentInstance*>(data));
    ok = !failed(cudaGetLastError(), "fillInstances", why);
  }
  ok = !failed(cudaGraphicsUnmapResources(1, &resource), "cudaGraphicsUnmapResources", why) && ok;
  return ok;
}

}  // namespace crowd::viewer
