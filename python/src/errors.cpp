// The library's errors as Python exceptions, with the library's messages unchanged: these are
// the located messages crowdsim prints after "crowdsim: error: ". Bad input is a ValueError (as
// std::invalid_argument is in pybind11), a refused step a RuntimeError.
#include <crowd/errors.hpp>
#include <crowd/scenario_spec.hpp>
#include <crowd/stop_request.hpp>

#include "bindings.hpp"

namespace crowd::python {

void bindErrors(py::module_& m) {
  // pybind11 tries the translators last registered first: the most derived goes last.
  auto& input = py::register_exception<InputError>(m, "InputError", PyExc_ValueError);
  input.attr("__doc__") = "Input the library cannot use (a ValueError); the message says where and what.";
  auto& scenario = py::register_exception<ScenarioError>(m, "ScenarioError", input);
  scenario.attr("__doc__") =
      "A scenario file, dict or built-in that cannot be loaded; the message locates the problem.";
  auto& simulation = py::register_exception<SimulationError>(m, "SimulationError", PyExc_RuntimeError);
  simulation.attr("__doc__") =
      "A step refused because it would make a velocity or position non-finite; the state is as before it.";
  // Stop requests come from crowdsim's signal handlers; in Python, Ctrl-C is KeyboardInterrupt.
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const Interrupted& e) {
      PyErr_SetString(PyExc_KeyboardInterrupt, e.what());
    }
  });
}

}  // namespace crowd::python
