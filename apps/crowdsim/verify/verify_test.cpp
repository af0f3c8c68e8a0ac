// Names of the models and outcomes, seeds, and the number formats the rows share.
#include "verify_test.hpp"

#include <algorithm>
#include <cstdio>

namespace crowd::cli::verify {

const char* modelLabel(Model model) {
  switch (model) {
    case Model::Csm:
      return "CSM";
    case Model::SocialForce:
      return "social force";
    case Model::OrcaDensity:
      return "ORCA+density";
    case Model::Orca:
      return "ORCA";
  }
  return "?";
}

const char* modelKey(Model model) {
  switch (model) {
    case Model::Csm:
      return "csm";
    case Model::SocialForce:
      return "socialforce";
    case Model::OrcaDensity:
      return "orca-density";
    case Model::Orca:
      return "orca";
  }
  return "?";
}

bool isPedestrianModel(Model model) {
  return model == Model::Csm || model == Model::SocialForce;
}

float modelTimeStep(Model model) {
  return model == Model::SocialForce ? 0.01f : 0.1f;
}

const char* outcomeLabel(Outcome outcome) {
  switch (outcome) {
    case Outcome::Pass:
      return "PASS";
    case Outcome::Fail:
      return "FAIL";
    case Outcome::Info:
      return "info";
    case Outcome::NotRun:
      return "not run";
  }
  return "?";
}

std::vector<std::uint64_t> seedList(const Settings& settings) {
  std::vector<std::uint64_t> seeds;
  for (int s = 1; s <= settings.seeds; ++s) seeds.push_back(static_cast<std::uint64_t>(s));
  return seeds;
}

std::string fixed(double value, int digits) {
  char text[64];
  std::snprintf(text, sizeof text, "%.*f", digits, value);
  return text;
}

std::string rangeText(const std::vector<double>& values, int digits) {
  if (values.empty()) return "-";
  const auto [lo, hi] = std::minmax_element(values.begin(), values.end());
  const std::string low = fixed(*lo, digits);
  const std::string high = fixed(*hi, digits);
  return low == high ? low : low + ".." + high;
}

Outcome allPassed(const std::vector<bool>& seedPassed) {
  return std::all_of(seedPassed.begin(), seedPassed.end(), [](bool passed) { return passed; })
             ? Outcome::Pass
             : Outcome::Fail;
}

}  // namespace crowd::cli::verify
