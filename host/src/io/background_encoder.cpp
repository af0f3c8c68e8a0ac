// BackgroundEncoder (io/background_encoder.hpp): two buffers between the step and the writer
// thread.
#include "io/background_encoder.hpp"

#include <chrono>

namespace crowd {

TrajectoryFrame BackgroundEncoder::Snapshot::view() const {
  TrajectoryFrame f;
  f.step = step;
  f.frame = frame;
  f.origin = origin;
  f.ids = ids;
  f.positions2 = positions2;
  f.velocities2 = velocities2;
  f.positions3 = positions3;
  f.velocities3 = velocities3;
  return f;
}

BackgroundEncoder::BackgroundEncoder(std::unique_ptr<TrajectoryEncoder> encoder)
    : encoder_(std::move(encoder)), buffers_(2) {
  for (Snapshot& buffer : buffers_) free_.push_back(&buffer);
  thread_ = std::thread([this] { run(); });
}

BackgroundEncoder::~BackgroundEncoder() {
  stop();
}

void BackgroundEncoder::stop() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
  }
  changed_.notify_all();
  if (thread_.joinable()) thread_.join();
}

void BackgroundEncoder::rethrowFailure() {
  std::lock_guard<std::mutex> lock(mutex_);
  if (failure_) std::rethrow_exception(failure_);
}

void BackgroundEncoder::write(const TrajectoryFrame& f) {
  Snapshot* buffer = nullptr;
  {
    std::unique_lock<std::mutex> lock(mutex_);
    if (failure_) std::rethrow_exception(failure_);
    if (free_.empty()) {
      ++stalls_;
      const auto start = std::chrono::steady_clock::now();
      changed_.wait(lock, [this] { return !free_.empty() || failure_; });
      stallSeconds_ += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    }
    if (failure_) std::rethrow_exception(failure_);
    buffer = free_.front();
    free_.pop_front();
  }
  // The copy, outside the lock: the thread may be encoding the other buffer meanwhile.
  buffer->step = f.step;
  buffer->frame = f.frame;
  buffer->origin = f.origin;
  buffer->ids.assign(f.ids.begin(), f.ids.end());
  buffer->positions2.assign(f.positions2.begin(), f.positions2.end());
  buffer->velocities2.assign(f.velocities2.begin(), f.velocities2.end());
  buffer->positions3.assign(f.positions3.begin(), f.positions3.end());
  buffer->velocities3.assign(f.velocities3.begin(), f.velocities3.end());
  {
    std::lock_guard<std::mutex> lock(mutex_);
    waiting_.push_back(buffer);
  }
  changed_.notify_all();
}

void BackgroundEncoder::run() {
  std::unique_lock<std::mutex> lock(mutex_);
  for (;;) {
    changed_.wait(lock, [this] { return !waiting_.empty() || stopping_; });
    if (stopping_) return;  // finish() has drained the frames; the destructor drops them.
    Snapshot* buffer = waiting_.front();
    waiting_.pop_front();
    encoding_ = true;
    const bool failed = failure_ != nullptr;  // After a failure nothing more is written.
    lock.unlock();
    std::exception_ptr failure;
    if (!failed) {
      try {
        encoder_->write(buffer->view());
      } catch (...) {
        failure = std::current_exception();
      }
    }
    lock.lock();
    encoding_ = false;
    if (failure) failure_ = failure;
    free_.push_back(buffer);
    changed_.notify_all();
  }
}

void BackgroundEncoder::finish() {
  {
    std::unique_lock<std::mutex> lock(mutex_);
    // Every frame encoded (or the encoder failed), then the thread may end.
    changed_.wait(lock, [this] { return (waiting_.empty() && !encoding_) || failure_; });
  }
  stop();
  rethrowFailure();
  encoder_->finish();
}

}  // namespace crowd
