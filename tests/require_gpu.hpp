// GPU tests skip, saying why, where this build has no CUDA backend or the machine no usable device.
// On a machine that is meant to run them, CROWD_REQUIRE_GPU=1 turns that skip into a failure, so a
// GPU run cannot come out green without running its GPU tests.
#pragma once

#include <cstdlib>
#include <cstring>
#include <string>

#include <gtest/gtest.h>

#include <crowd/simulator.hpp>

namespace crowd::test {

inline bool gpuRequired() {
  const char* value = std::getenv("CROWD_REQUIRE_GPU");
  return value != nullptr && std::strcmp(value, "") != 0 && std::strcmp(value, "0") != 0;
}

}  // namespace crowd::test

/// Skips the test (fails it under CROWD_REQUIRE_GPU=1) unless `ready`; `why` says what is missing.
#define CROWD_SKIP_WITHOUT_GPU(ready, why)                                                  \
  do {                                                                                      \
    if (!(ready)) {                                                                         \
      if (crowd::test::gpuRequired()) FAIL() << "CROWD_REQUIRE_GPU is set, but: " << (why); \
      GTEST_SKIP() << "needs a GPU: " << (why);                                             \
    }                                                                                       \
  } while (false)

#define CROWD_REQUIRE_GPU()                                                 \
  do {                                                                      \
    std::string crowdWhyNoGpu;                                              \
    const bool crowdGpuReady = crowd::cudaBackendAvailable(&crowdWhyNoGpu); \
    CROWD_SKIP_WITHOUT_GPU(crowdGpuReady, crowdWhyNoGpu);                   \
  } while (false)
