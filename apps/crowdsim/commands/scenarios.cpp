// crowdsim scenarios: the built-in scenarios, planar then 3D, one line each with its description.
#include <cstdio>

#include <crowd/scenario.hpp>
#include <crowd/scenario3.hpp>

#include "command.hpp"
#include "exit_codes.hpp"

namespace crowd::cli {

Command scenariosCommand() {
  return Command{"scenarios", "List the built-in scenarios", [](CLI::App&) {},
                 [] {
                   for (const std::string& name : builtinScenarioNames()) {
                     std::printf("%-12s %s\n", name.c_str(), builtinScenarioDescription(name).c_str());
                   }
                   for (const std::string& name : builtinScenario3Names()) {
                     std::printf("%-12s %s\n", name.c_str(), builtinScenario3Description(name).c_str());
                   }
                   return kExitSuccess;
                 }};
}

}  // namespace crowd::cli
