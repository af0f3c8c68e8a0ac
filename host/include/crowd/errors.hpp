// What the library throws, by kind. Every refusal of bad input (a scenario file, a map, a
// recording, an argument outside its limits) is an InputError or a std::invalid_argument, its
// base, with a message that locates the problem; a program tells bad input from a failure by
// catching std::invalid_argument first (crowdsim's exit code 2).
#pragma once

#include <stdexcept>
#include <string>

namespace crowd {

/// Input the library cannot use, from a named source: the message says where (a file and line,
/// or a JSON path), what was found and what was expected.
class InputError : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

/// A step that was refused because it would have produced a non-finite velocity or position.
/// The simulator's state is left as it was before the step.
class SimulationError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace crowd
