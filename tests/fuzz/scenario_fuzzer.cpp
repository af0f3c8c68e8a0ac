// libFuzzer target for the scenario reader: any bytes either load as a scenario or are refused
// with a ScenarioError; nothing crashes, hangs, leaks or reads out of bounds (the target is
// built with AddressSanitizer and UndefinedBehaviorSanitizer). Small scenarios that load are
// also run for a few steps, so that whatever the reader accepts the simulator can take.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include <crowd/scenario.hpp>
#include <crowd/scenario_spec.hpp>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  try {
    const crowd::ScenarioSpec spec = crowd::parseScenarioSpec(text, "fuzz.json");
    std::size_t agents = spec.agents.size();
    for (const crowd::GroupSpec& group : spec.groups) agents += group.count;
    if (agents > 2000) return 0;  // Valid, but too large to generate on every input.
    const crowd::Scenario scenario = crowd::expandScenario(spec);
    crowd::Simulator sim = crowd::makeSimulator(scenario, 1);
    for (int s = 0; s < 3; ++s) sim.step();
  } catch (const crowd::ScenarioError&) {
    // A refused file: what the reader is for.
  }
  return 0;
}
