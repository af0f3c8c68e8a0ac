// crowdsim geometry: writes a planar scene's geometry for the tools that analyse its
// trajectories, without running it: the walkable area as one WKT polygon (.wkt, or on stdout
// without --out; what pedpy.WalkableArea takes, and what a JuPedSim database from `run` holds),
// or every part of the scene as GeoJSON (.json, .geojson; crowd/scene_geometry.hpp).
#include <algorithm>
#include <cctype>
#include <cstdio>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include <crowd/output_file.hpp>
#include <crowd/scenario.hpp>
#include <crowd/scene_geometry.hpp>

#include "command.hpp"
#include "exit_codes.hpp"
#include "options.hpp"
#include "output_paths.hpp"
#include "stop_signals.hpp"
#include "targets.hpp"

namespace crowd::cli {
namespace {

struct GeometryOptions {
  std::vector<std::string> target;  ///< FILE, or "builtin" NAME.
  std::optional<std::size_t> agents;
  std::optional<std::uint64_t> seed;
  int threads = 0;
  std::string outPath;  ///< Empty: the WKT on stdout.
};

enum class GeometryFormat { Wkt, GeoJson };

// The format --out's extension names (case ignored); anything else is refused before any work.
GeometryFormat geometryFormatFor(const std::string& path) {
  if (path.empty()) return GeometryFormat::Wkt;
  const std::size_t dot = path.find_last_of('.');
  const std::size_t slash = path.find_last_of('/');
  std::string extension = dot == std::string::npos || (slash != std::string::npos && dot < slash)
                              ? std::string()
                              : path.substr(dot);
  std::transform(extension.begin(), extension.end(), extension.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  if (extension == ".wkt") return GeometryFormat::Wkt;
  if (extension == ".json" || extension == ".geojson") return GeometryFormat::GeoJson;
  throw std::invalid_argument("--out " + path +
                              ": the extension names the format: .wkt (the walkable area as WKT) or .json, "
                              ".geojson (every part of the scene as GeoJSON)");
}

int writeGeometry(const GeometryOptions& o) {
  catchStopSignals();  // Routing a large map at load can take a while.
  const GeometryFormat format = geometryFormatFor(o.outPath);
  const bool fromFile = o.target.size() == 1 && o.target[0] != "builtin";
  checkOutputPaths({{"--out", o.outPath}}, {fromFile ? o.target[0] : std::string()}, "the scenario file");
  if (isTarget3d(o.target)) {
    throw ScenarioError("geometry: " + (fromFile ? o.target[0] : "builtin " + o.target.back()) +
                        " is a 3D world; walkable areas, WKT and GeoJSON are planar");
  }
  const Scenario scenario = loadScenarioTarget(o.target, o.agents, o.seed, nullptr, std::nullopt);
  checkOutputPaths({{"--out", o.outPath}}, {scenario.mapFile}, "the scenario's map file");
  warn(scenario.warnings);
  // Built as a run builds it, so that its obstacles (a map's outlines, the polygons drawn round
  // circles) and frame are the ones a run's JuPedSim database describes.
  const Simulator sim = makeSimulator(scenario, o.threads, BackendKind::Cpu);
  std::string text;
  if (format == GeometryFormat::Wkt) {
    const WalkableArea area = walkableArea(sim);
    if (area.overlapping) {
      std::fprintf(stderr,
                   "crowdsim: warning: obstacles overlap, so the walkable area has overlapping holes; merge "
                   "them (shapely.make_valid) before measuring areas\n");
    }
    text = walkableAreaWkt(area) + "\n";
  } else {
    text = sceneGeometryGeoJson(scenario, sim);
  }
  if (o.outPath.empty()) {
    std::fwrite(text.data(), 1, text.size(), stdout);
    return std::fflush(stdout) == 0 ? kExitSuccess : kExitFailure;
  }
  OutputFile file(o.outPath);
  std::fwrite(text.data(), 1, text.size(), file.stream());
  file.commit();
  std::fprintf(writesToStdout(o.outPath) ? stderr : stdout, "wrote %s\n", o.outPath.c_str());
  return kExitSuccess;
}

void addGeometryOptions(CLI::App& command, GeometryOptions& o) {
  command.add_option("target", o.target, "A scenario file, or 'builtin NAME' (see 'crowdsim scenarios')")
      ->expected(1, 2)
      ->required();
  addAgentsOption(command, o.agents);
  command.add_option("--seed", o.seed, "Seed for random placement and goals, 0 to 2^64 - 1")
      ->check(kWholeNumber);
  addThreadsOption(command, o.threads);
  command
      .add_option(
          "--out", o.outPath,
          "Write to this file, in the format its extension names: .wkt the walkable area as one WKT "
          "polygon (as pedpy.WalkableArea takes it), .json or .geojson a GeoJSON FeatureCollection of "
          "the walkable area, obstacles, exits and measurement areas and lines (property \"kind\"); "
          "without it, the WKT on stdout")
      ->check(kPathGiven);
}

}  // namespace

Command geometryCommand() {
  auto options = std::make_shared<GeometryOptions>();
  return Command{"geometry",
                 "Write a planar scene's walkable area (WKT) or all its parts (GeoJSON), in metres",
                 [options](CLI::App& app) { addGeometryOptions(app, *options); },
                 [options] { return writeGeometry(*options); }};
}

}  // namespace crowd::cli
