// NumPy arrays over a simulator's host arrays, and NumPy input for the bulk setters.
//
// positions, velocities and ids are views, not copies: the array's data is the simulator's own
// host column (BasicSimulator::positions() and the like), read-only. The columns stay where they
// are while the agent count stays the same: a step refreshes them in place (a GPU or the CPU's
// sorted working copy writes back into the same memory), and removal compacts them in place.
// Adding an agent may move them (the vectors grow), which would leave a view pointing at freed
// memory, so the module counts the views alive (each array's base is a capsule whose release
// counts it down) and, like a bytearray with exported buffers, refuses add_agent(s) and
// remove_agent with BufferError while any is. While views are alive a step also brings the host
// copy up to date at once (the library otherwise does that lazily, at the next read), so a view
// taken before step() shows the new positions. A step that removes arrived agents
// (remove_arrived) compacts in place: a view kept across it keeps its length, and its rows past
// agent_count are stale.
#pragma once

#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include "handle.hpp"

namespace crowd::python {

namespace py = pybind11;

static_assert(sizeof(AgentId) == sizeof(std::uint64_t) && std::endian::native == std::endian::little,
              "the ids view reads an AgentId as one uint64 (packId)");
static_assert(sizeof(Vec2) == 2 * sizeof(float) && sizeof(Vec3) == 3 * sizeof(float),
              "vectors are read as rows of floats");

template <class Vector>
inline constexpr py::ssize_t kDimensions = sizeof(Vector) / sizeof(float);

/// Keeps the simulator's Python object alive while a view of it is, and counts the views.
template <class Sim>
struct ViewKeeper {
  ViewKeeper(py::object self, SimulatorHandle<Sim>& counted) : owner(std::move(self)), handle(&counted) {
    ++handle->liveViews;
  }
  ~ViewKeeper() { --handle->liveViews; }  // Before owner is released: the handle is still alive.
  ViewKeeper(const ViewKeeper&) = delete;
  ViewKeeper& operator=(const ViewKeeper&) = delete;

  py::object owner;
  SimulatorHandle<Sim>* handle;
};

/// A read-only array of `shape` and `strides` over `data`, counted as a live view of `self`.
template <class Sim>
py::array viewOf(py::object self, const py::dtype& dtype, std::array<py::ssize_t, 2> shape,
                 std::array<py::ssize_t, 2> strides, int dims, const void* data) {
  auto& handle = self.cast<SimulatorHandle<Sim>&>();
  auto keeper = std::make_unique<ViewKeeper<Sim>>(self, handle);
  py::capsule base(keeper.get(), [](void* p) { delete static_cast<ViewKeeper<Sim>*>(p); });
  keeper.release();  // The capsule owns it now; had making the capsule failed, it would be gone.
  std::vector<py::ssize_t> shapes(shape.begin(), shape.begin() + dims);
  std::vector<py::ssize_t> stride(strides.begin(), strides.begin() + dims);
  // An empty column has no data pointer; any address serves for zero rows.
  static const std::uint64_t none = 0;
  py::array array(dtype, shapes, stride, data != nullptr ? data : &none, base);
  array.attr("setflags")(py::arg("write") = false);
  return array;
}

template <class Sim>
py::array positionsView(py::object self) {
  using Vector = decltype(self.cast<SimulatorHandle<Sim>&>().sim.positions())::value_type;
  const auto rows = self.cast<SimulatorHandle<Sim>&>().sim.positions();
  return viewOf<Sim>(self, py::dtype::of<float>(),
                     {static_cast<py::ssize_t>(rows.size()), kDimensions<Vector>},
                     {sizeof(Vector), sizeof(float)}, 2, rows.data());
}

template <class Sim>
py::array velocitiesView(py::object self) {
  using Vector = decltype(self.cast<SimulatorHandle<Sim>&>().sim.velocities())::value_type;
  const auto rows = self.cast<SimulatorHandle<Sim>&>().sim.velocities();
  return viewOf<Sim>(self, py::dtype::of<float>(),
                     {static_cast<py::ssize_t>(rows.size()), kDimensions<Vector>},
                     {sizeof(Vector), sizeof(float)}, 2, rows.data());
}

template <class Sim>
py::array idsView(py::object self) {
  const std::span<const AgentId> ids = self.cast<SimulatorHandle<Sim>&>().sim.ids();
  return viewOf<Sim>(self, py::dtype::of<std::uint64_t>(), {static_cast<py::ssize_t>(ids.size()), 0},
                     {sizeof(AgentId), 0}, 1, ids.data());
}

/// Refuses a change of the agent count while views are alive (see the top of this file).
template <class Sim>
void requireNoViews(const SimulatorHandle<Sim>& handle, const char* verb) {
  if (handle.liveViews > 0) {
    throw py::buffer_error(std::string(verb) + " would move the arrays that " +
                           std::to_string(handle.liveViews) +
                           " live view(s) of positions, velocities or ids look at: delete them first "
                           "(del, or let them go out of scope) and take new ones after");
  }
}

/// Float rows of `Vector`'s width from any array-like (float64 is converted): (N, 2) or (N, 3).
using FloatRows = py::array_t<float, py::array::c_style | py::array::forcecast>;
template <class Vector>
std::span<const Vector> vectorRows(const FloatRows& rows, const char* what) {
  constexpr py::ssize_t width = kDimensions<Vector>;
  if (rows.ndim() != 2 || rows.shape(1) != width) {
    std::string shape;
    for (py::ssize_t d = 0; d < rows.ndim(); ++d)
      shape += (d > 0 ? ", " : "") + std::to_string(rows.shape(d));
    throw std::invalid_argument(std::string(what) + ": expected an array of shape (N, " +
                                std::to_string(width) + "), got (" + shape + ")");
  }
  return {reinterpret_cast<const Vector*>(rows.data()), static_cast<std::size_t>(rows.shape(0))};
}

}  // namespace crowd::python
