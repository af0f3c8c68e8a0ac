// The agent columns (kernels/agent_columns.hpp) in device memory: the CUDA counterpart of
// AgentStoreOf (Vec2 columns for a planar world, Vec3 for a 3D one). Upload, download, gather, scatter and
// byte counts loop over the column list.
#pragma once

#include <cstddef>

#include <crowd/kernels/agent_columns.hpp>

#include "sim/agent_store.hpp"
#include "sim/cuda/device_buffer.cuh"

namespace crowd {

template <class Vector>
class DeviceAgentStoreOf {
 public:
#define CROWD_COLUMN_BUFFER(Type, name, stepWrites) DeviceBuffer<Type> name;
  CROWD_AGENT_COLUMNS(CROWD_COLUMN_BUFFER)
#undef CROWD_COLUMN_BUFFER

  std::size_t size() const {
    return size_;
  }

  void resize(std::size_t count) {
#define CROWD_RESIZE_COLUMN(Type, name, stepWrites) name.resize(count);
    CROWD_AGENT_COLUMNS(CROWD_RESIZE_COLUMN)
#undef CROWD_RESIZE_COLUMN
    size_ = count;
  }
  void upload(const AgentStoreOf<Vector>& host) {
#define CROWD_UPLOAD_COLUMN(Type, name, stepWrites) name.upload(host.name.data(), host.size());
    CROWD_AGENT_COLUMNS(CROWD_UPLOAD_COLUMN)
#undef CROWD_UPLOAD_COLUMN
    size_ = host.size();
  }
  void download(AgentStoreOf<Vector>& host) const {
    host.resize(size_);
#define CROWD_DOWNLOAD_COLUMN(Type, name, stepWrites) name.download(host.name.data(), size_);
    CROWD_AGENT_COLUMNS(CROWD_DOWNLOAD_COLUMN)
#undef CROWD_DOWNLOAD_COLUMN
  }
  AgentArraysOf<Vector> arrays() {
    AgentArraysOf<Vector> view;
#define CROWD_COLUMN_DATA(Type, name, stepWrites) view.name = name.data();
    CROWD_AGENT_COLUMNS(CROWD_COLUMN_DATA)
#undef CROWD_COLUMN_DATA
    return view;
  }
  std::size_t bytes() const {
    std::size_t total = 0;
#define CROWD_COLUMN_BYTES(Type, name, stepWrites) total += name.bytes();
    CROWD_AGENT_COLUMNS(CROWD_COLUMN_BYTES)
#undef CROWD_COLUMN_BYTES
    return total;
  }

 private:
  std::size_t size_ = 0;
};
using DeviceAgentStore = DeviceAgentStoreOf<Vec2>;

}  // namespace crowd
