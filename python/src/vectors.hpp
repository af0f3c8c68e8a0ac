// Vectors between Python and the library: any sequence of 2 (planar) or 3 (3D) numbers in, a
// tuple out.
#pragma once

#include <string>

#include <pybind11/pybind11.h>

#include <crowd/kernels/vec2.hpp>
#include <crowd/kernels/vec3.hpp>

namespace crowd::python {

namespace py = pybind11;

template <class Vector>
Vector toVector(py::handle value, const char* what) {
  constexpr int n = sizeof(Vector) / sizeof(float);
  const auto fail = [&] {
    return py::type_error(std::string(what) + ": expected a sequence of " + std::to_string(n) +
                          " numbers, got " + std::string(py::str(py::repr(value))));
  };
  if (!py::isinstance<py::sequence>(value) || py::isinstance<py::str>(value)) throw fail();
  const auto items = py::reinterpret_borrow<py::sequence>(value);
  if (static_cast<int>(items.size()) != n) throw fail();
  Vector out(0.0f);
  for (int i = 0; i < n; ++i) {
    try {
      out[i] = items[static_cast<std::size_t>(i)].cast<float>();
    } catch (const py::cast_error&) {
      throw fail();
    }
  }
  return out;
}

inline py::tuple fromVector(Vec2 v) {
  return py::make_tuple(v.x, v.y);
}
inline py::tuple fromVector(Vec3 v) {
  return py::make_tuple(v.x, v.y, v.z);
}

}  // namespace crowd::python
