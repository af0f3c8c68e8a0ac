// A crowdsim subcommand as main.cpp's table lists it: its name, its one-line description, what
// adds its options to the command line, and what runs it once they are parsed. Each command's
// options live with its functions (commands/*.cpp), so that main.cpp only loops over the table.
#pragma once

#include <functional>

#include <CLI/CLI.hpp>

namespace crowd::cli {

struct Command {
  const char* name;
  const char* description;
  std::function<void(CLI::App&)> addOptions;  ///< Called once, on the command's own CLI::App.
  /// Called after parsing when the command was named; returns the exit code (exit_codes.hpp) or
  /// throws (main.cpp maps what it throws to one).
  std::function<int()> run;
};

Command runCommand();        // commands/run.cpp
Command scenariosCommand();  // commands/scenarios.cpp
Command validateCommand();   // commands/validate.cpp
Command benchCommand();      // commands/bench.cpp
Command routeCommand();      // commands/route.cpp
Command realismCommand();    // commands/realism.cpp
Command viewCommand();       // commands/view.cpp
Command renderCommand();     // commands/render.cpp
Command measureCommand();    // commands/measure.cpp
Command verifyCommand();     // commands/verify.cpp
Command geometryCommand();   // commands/geometry.cpp
Command ensembleCommand();   // commands/ensemble.cpp

/// `crowdsim` with no command: the showcase in a window where there is a display, else a picture
/// of it; without the viewer, the circle run and its summary (commands/default_action.cpp).
int runDefault();

}  // namespace crowd::cli
