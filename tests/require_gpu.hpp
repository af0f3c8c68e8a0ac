// GPU tests skip, saying why, where this build has no CUDA backend or the machine no usable device.
#pragma once

#include <string>

#include <gtest/gtest.h>

#include <crowd/simulator.hpp>

#define CROWD_REQUIRE_GPU()                                                          \
  do {                                                                               \
    std::string why;                                                                 \
    if (!crowd::cudaBackendAvailable(&why)) GTEST_SKIP() << "needs a GPU: " << why;  \
  } while (false)
