// Plain cudaMalloc'd device arrays with the error checks the CUDA executor needs.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstddef>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace crowd {

/// Throws std::runtime_error naming the failed call and CUDA's reason. The error is cleared
/// first: CUB and later launches peek at the last error, and a recoverable one (say, out of
/// memory) must not make every later step fail too.
inline void cudaCheck(cudaError_t status, const char* what) {
  if (status != cudaSuccess) {
    cudaGetLastError();
    throw std::runtime_error(std::string("CUDA: ") + what + ": " + cudaGetErrorString(status));
  }
}

/// A device array of trivially copyable T. Grows by reallocation; never shrinks.
template <typename T>
class DeviceBuffer {
 public:
  DeviceBuffer() = default;
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
  ~DeviceBuffer() {
    if (data_ != nullptr) cudaFree(data_);
  }

  void resize(std::size_t count) {
    if (count > capacity_) {
      if (data_ != nullptr) cudaCheck(cudaFree(data_), "cudaFree");
      data_ = nullptr;
      capacity_ = 0;
      size_ = 0;  // Should the allocation fail, the buffer is empty, not a stale size over nothing.
      cudaCheck(cudaMalloc(reinterpret_cast<void**>(&data_), count * sizeof(T)), "cudaMalloc");
      capacity_ = count;
    }
    size_ = count;
  }
  void upload(const T* host, std::size_t count) {
    resize(count);
    if (count > 0) cudaCheck(cudaMemcpy(data_, host, count * sizeof(T), cudaMemcpyHostToDevice), "upload");
  }
  void download(T* host, std::size_t count) const {
    if (count > 0) cudaCheck(cudaMemcpy(host, data_, count * sizeof(T), cudaMemcpyDeviceToHost), "download");
  }

  /// Exchanges the arrays (a sort's two buffers trade places).
  void swap(DeviceBuffer& other) noexcept {
    std::swap(data_, other.data_);
    std::swap(size_, other.size_);
    std::swap(capacity_, other.capacity_);
  }

  T* data() { return data_; }
  const T* data() const { return data_; }
  std::size_t size() const { return size_; }
  std::size_t bytes() const { return capacity_ * sizeof(T); }

 private:
  T* data_ = nullptr;
  std::size_t size_ = 0;
  std::size_t capacity_ = 0;
};

/// Bytes a device buffer holds (as steering_columns.hpp counts a host column's).
template <typename T>
std::size_t bufferBytes(const DeviceBuffer<T>& buffer) {
  return buffer.bytes();
}

/// A small device table mirrored from the host (the profile tables): an upload copies only when
/// the host's bytes differ from those it last copied, sparing each step a blocking copy.
template <typename T>
class DeviceMirror {
 public:
  void upload(const T* host, std::size_t count) {
    const auto* bytes = reinterpret_cast<const unsigned char*>(host);
    const std::size_t size = count * sizeof(T);
    if (buffer_.data() != nullptr && copied_.size() == size &&
        std::equal(bytes, bytes + size, copied_.begin()))
      return;
    copied_.clear();  // Should the upload fail, the next one copies again.
    buffer_.upload(host, count);
    copied_.assign(bytes, bytes + size);
  }

  const T* data() const { return buffer_.data(); }
  std::size_t bytes() const { return buffer_.bytes(); }

 private:
  DeviceBuffer<T> buffer_;
  std::vector<unsigned char> copied_;
};

}  // namespace crowd
