// crowdsim realism: a recorded scene re-enacted twice (ORCA, and straight walks without
// avoidance), each measured as the recording is, side by side in a table; optionally the ORCA
// re-enactment in the recording's format, the figures as JSON and a picture (SVG). Bad input or
// usage (exit code 2): a recording it cannot read, bad options or an output path that cannot be
// written; 1 when writing an output fails.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <glm/common.hpp>
#include <nlohmann/json.hpp>

#include <crowd/output_file.hpp>
#include <crowd/realism.hpp>
#include <crowd/simulator.hpp>

#include "command.hpp"
#include "exit_codes.hpp"
#include "output_paths.hpp"
#include "stop_signals.hpp"
#include "strict_integer.hpp"
#include "xml_text.hpp"

namespace crowd::cli {
namespace {

struct RealismCommandOptions {
  std::string scenePath;          // "frame pedestrian x y" lines.
  RealismOptions run;             // Frame time, substeps, agent parameters, threads, seed.
  std::string pace = "schedule";  // run.pace by name: "schedule" or "mean".
  std::string outPath;            // The ORCA re-enactment in the recording's own format.
  std::string jsonPath;           // Every figure of the table, as JSON.
  std::string svgPath;            // A picture: the recorded paths under the simulated ones.
};

struct Column {
  const char* name;  // In the table.
  const char* key;   // In the JSON.
  SceneStats stats;
};

// People walk at 0.5 to 2 m/s (Weidmann's free speed 1.34). A recording whose median is outside
// that was most likely read with the wrong --frame-time (ETH's own rate is 0.667 s, not the
// 0.4 s of the other UCY/ETH files): speeds scale with it, so the time that would give 1.34 m/s
// is said, with the median as read.
void warnImplausibleSpeed(double medianSpeed, double frameTime) {
  if (!(medianSpeed > 2.0 || medianSpeed < 0.5) || !(medianSpeed > 0.0)) return;
  std::fprintf(
      stderr,
      "crowdsim: warning: the recorded median walking speed is %.2f m/s at --frame-time %g s, "
      "implausible for people (0.5 to 2 m/s); is the frame time right? %.3g s would make it 1.34 m/s\n",
      medianSpeed, frameTime, frameTime * medianSpeed / 1.34);
}

// Two re-enactments (ORCA and none) of this many steps each are a long wait past about a million:
// say so before starting, with what it comes from.
constexpr std::int64_t kLongReenactment = 1'000'000;

void warnLongReenactment(const RecordedScene& scene, int substeps) {
  const std::int64_t steps = reenactmentSteps(scene, substeps);
  if (steps <= kLongReenactment) return;
  std::fprintf(
      stderr,
      "crowdsim: warning: the recording takes 2 re-enactments of %lld steps each (%lld instants with "
      "someone in the scene x %d substeps); at a few microseconds a step for a few people that "
      "is minutes; fewer --substeps, or a recording cut to its busy part, is quicker\n",
      static_cast<long long>(steps), static_cast<long long>(steps / substeps), substeps);
}

void printRow(const char* label, const std::vector<Column>& columns, double (*value)(const SceneStats&),
              const char* format) {
  std::printf("%-36s", label);
  for (const Column& c : columns) {
    const double v = value(c.stats);
    if (std::isnan(v) || v < 0) {
      std::printf("%14s", "-");
    } else {
      char text[32];
      std::snprintf(text, sizeof text, format, v);
      std::printf("%14s", text);
    }
  }
  std::printf("\n");
}

void printTable(const std::vector<Column>& columns, double contactDistance) {
  std::printf("%-36s", "");
  for (const Column& c : columns) std::printf("%14s", c.name);
  std::printf("\n");
  printRow(
      "walking speed, 5th percentile (m/s)", columns, [](const SceneStats& s) { return s.speed.p5; }, "%.3f");
  printRow(
      "walking speed, median (m/s)", columns, [](const SceneStats& s) { return s.speed.p50; }, "%.3f");
  printRow(
      "walking speed, 95th percentile (m/s)", columns, [](const SceneStats& s) { return s.speed.p95; },
      "%.3f");
  printRow(
      "closest pair, 5th percentile (m)", columns, [](const SceneStats& s) { return s.closestPair.p5; },
      "%.3f");
  printRow(
      "closest pair, median (m)", columns, [](const SceneStats& s) { return s.closestPair.p50; }, "%.3f");
  printRow(
      "closest pair, smallest (m)", columns, [](const SceneStats& s) { return s.closestPair.min; }, "%.3f");
  char label[64];
  std::snprintf(label, sizeof label, "instants with a pair under %.3f m", contactDistance);
  printRow(
      label, columns, [](const SceneStats& s) { return static_cast<double>(s.closeInstants); }, "%.0f");
  printRow(
      "mean displacement error (ADE, m)", columns, [](const SceneStats& s) { return s.ade; }, "%.3f");
  printRow(
      "final displacement error (FDE, m)", columns, [](const SceneStats& s) { return s.fde; }, "%.3f");
}

nlohmann::json toJson(const Distribution& d) {
  return {{"count", d.count}, {"mean", d.mean}, {"min", d.min}, {"p5", d.p5}, {"p50", d.p50}, {"p95", d.p95}};
}

nlohmann::json toJson(const SceneStats& s) {
  nlohmann::json j = {
      {"speed", toJson(s.speed)}, {"closestPair", toJson(s.closestPair)}, {"closeInstants", s.closeInstants}};
  if (s.ade >= 0) j["ade"] = s.ade;
  if (s.fde >= 0) j["fde"] = s.fde;
  return j;
}

// The re-enactment as the recording was written: "frame pedestrian x y", by frame.
void writeTrajectories(const RecordedScene& scene, const SceneTrajectories& positions, OutputFile& out) {
  struct Line {
    int instant;
    std::int64_t pedestrian;
    glm::dvec2 position;
  };
  std::vector<Line> lines;
  for (std::size_t t = 0; t < scene.tracks.size(); ++t) {
    for (std::size_t j = 0; j < positions[t].size(); ++j) {
      lines.push_back(Line{scene.tracks[t].points[j].instant, scene.tracks[t].pedestrian, positions[t][j]});
    }
  }
  std::stable_sort(lines.begin(), lines.end(),
                   [](const Line& a, const Line& b) { return a.instant < b.instant; });
  for (const Line& l : lines) {
    std::fprintf(out.stream(), "%lld\t%lld\t%.4f\t%.4f\n", static_cast<long long>(scene.frameOf(l.instant)),
                 static_cast<long long>(l.pedestrian), l.position.x, l.position.y);
  }
}

// Recorded paths in grey under the simulated ones, one colour per pedestrian; world y points up.
void writePicture(const RecordedScene& scene, const SceneTrajectories& recorded,
                  const SceneTrajectories& simulated, OutputFile& out) {
  glm::dvec2 low{INFINITY, INFINITY};
  glm::dvec2 high{-INFINITY, -INFINITY};
  for (const SceneTrajectories* paths : {&recorded, &simulated}) {
    for (const auto& path : *paths) {
      for (const glm::dvec2& p : path) {
        low = glm::min(low, p);
        high = glm::max(high, p);
      }
    }
  }
  const double margin = 24.0;
  const double span = std::max({high.x - low.x, high.y - low.y, 1e-9});
  const double scale = 1000.0 / span;
  const double width = (high.x - low.x) * scale + 2 * margin;
  const double height = (high.y - low.y) * scale + 2 * margin + 24.0;
  std::FILE* f = out.stream();
  std::fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\">\n", width,
               height);
  std::fprintf(f, "<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n");
  std::fprintf(
      f,
      "<text x=\"%.0f\" y=\"18\" font-family=\"sans-serif\" font-size=\"14\">%s: recorded paths in grey, "
      "the ORCA re-enactment in colour; the bar is 1 m</text>\n",
      margin, escapeXml(scene.source).c_str());
  std::fprintf(
      f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"black\" stroke-width=\"3\"/>\n",
      width - margin - scale, height - 8.0, width - margin, height - 8.0);
  const auto polyline = [&](const std::vector<glm::dvec2>& path, const std::string& style) {
    if (path.size() < 2) return;
    std::fprintf(f, "<polyline fill=\"none\" %s points=\"", style.c_str());
    for (const glm::dvec2& p : path) {
      std::fprintf(f, "%.1f,%.1f ", (p.x - low.x) * scale + margin, (high.y - p.y) * scale + margin + 24.0);
    }
    std::fprintf(f, "\"/>\n");
  };
  for (const auto& path : recorded) polyline(path, "stroke=\"#b0b0b0\" stroke-width=\"2.5\"");
  for (std::size_t t = 0; t < simulated.size(); ++t) {
    const double hue =
        std::fmod(static_cast<double>(t) * 137.508, 360.0);  // Golden angle: neighbours differ.
    char style[96];
    std::snprintf(style, sizeof style, "stroke=\"hsl(%.0f,75%%,42%%)\" stroke-width=\"1.3\"", hue);
    polyline(simulated[t], style);
  }
  std::fprintf(f, "</svg>\n");
}

void addRealismOptions(CLI::App& command, RealismCommandOptions& o) {
  command.add_option("file", o.scenePath, "The recording: lines of 'frame pedestrian x y' (metres)")
      ->required();
  command
      .add_option("--frame-time", o.run.frameTime,
                  "Seconds between annotations (ETH/UCY: 0.4; ETH's own rate is 0.667, see the README)")
      ->capture_default_str();
  command.add_option("--substeps", o.run.substeps, "Simulation steps per annotation interval")
      ->check(kWholeNumber)
      ->capture_default_str();
  command.add_option("--radius", o.run.params.radius, "Pedestrian radius, m")->capture_default_str();
  command.add_option("--time-horizon", o.run.params.timeHorizon, "ORCA's time horizon, s")
      ->capture_default_str();
  command.add_option("--neighbor-dist", o.run.params.neighborDist, "Neighbours within this are avoided, m")
      ->capture_default_str();
  command.add_option("--max-neighbors", o.run.params.maxNeighbors, "At most this many are avoided")
      ->check(kWholeNumber)
      ->capture_default_str();
  command
      .add_option("--max-speed-factor", o.run.maxSpeedFactor,
                  "Each pedestrian's maxSpeed over their recorded mean speed")
      ->capture_default_str();
  command
      .add_option(
          "--pace", o.pace,
          "schedule: re-pace at every annotation to arrive when the recording does; mean: walk at the "
          "recorded mean speed throughout")
      ->check(CLI::IsMember({"schedule", "mean"}))
      ->capture_default_str();
  command.add_option("--threads", o.run.threads, "CPU threads (0: all cores); results do not depend on it")
      ->capture_default_str()
      ->check(kWholeNumber)
      ->check(CLI::Range(0, kMaxThreads));
  command.add_option("--seed", o.run.seed, "Seed of the simulator's random draws")
      ->check(kWholeNumber)
      ->capture_default_str();
  command
      .add_option("--out", o.outPath,
                  "Write the ORCA re-enactment as the recording is written (frame pedestrian x y)")
      ->check(kPathGiven);
  command.add_option("--json", o.jsonPath, "Write the table's figures as JSON")->check(kPathGiven);
  command.add_option("--svg", o.svgPath, "Draw the recorded and re-enacted paths (SVG)")->check(kPathGiven);
  command.footer(
      "Each pedestrian enters at their first annotation, moving at their first recorded velocity, and heads "
      "for\n"
      "their last annotated position (--pace). Speeds are measured between annotations one\n"
      "interval apart, closest pairs over the pedestrians annotated at each instant, displacement errors "
      "against\n"
      "the recording at every annotation after each one's first.");
}

int runRealism(const RealismCommandOptions& options) {
  catchStopSignals();
  RealismCommandOptions o = options;
  o.run.pace = o.pace == "mean" ? Pace::Mean : Pace::Schedule;
  checkRealismOptions(o.run);
  checkOutputPaths({{"--out", o.outPath}, {"--json", o.jsonPath}, {"--svg", o.svgPath}}, {o.scenePath},
                   "the recording");
  const RecordedScene scene = loadRecordedScene(o.scenePath);
  // As the run summary counts collisions: closer than 99% of two radii (ORCA's own contacts sit
  // at two radii, less rounding).
  const double contact = 0.99 * 2.0 * o.run.params.radius;
  const SceneTrajectories recorded = recordedTrajectories(scene);
  warnLongReenactment(scene, o.run.substeps);
  RealismOptions straight = o.run;
  straight.avoidance = AvoidanceMode::None;
  const SceneTrajectories withOrca = simulateRecordedScene(scene, o.run);
  const SceneTrajectories without = simulateRecordedScene(scene, straight);
  const std::vector<Column> columns{
      {"recorded", "recorded", measureScene(scene, recorded, o.run.frameTime, contact)},
      {"ORCA", "orca", measureScene(scene, withOrca, o.run.frameTime, contact, &recorded)},
      {"no avoidance", "none", measureScene(scene, without, o.run.frameTime, contact, &recorded)}};

  warnImplausibleSpeed(columns[0].stats.speed.p50, o.run.frameTime);
  std::printf("%s: %zu pedestrians, %zu annotations, %d instants %g s apart (%.1f s), up to %d at once\n",
              scene.source.c_str(), scene.tracks.size(), scene.rows, scene.instants, o.run.frameTime,
              (scene.instants - 1) * o.run.frameTime, scene.mostAtOnce());
  std::printf(
      "re-enacted in %g s steps: radius %g m, time horizon %g s, up to %d neighbours within %g m, "
      "maxSpeed %gx each one's mean speed, %s pace\n\n",
      o.run.frameTime / o.run.substeps, o.run.params.radius, o.run.params.timeHorizon,
      o.run.params.maxNeighbors, o.run.params.neighborDist, o.run.maxSpeedFactor, o.pace.c_str());
  printTable(columns, contact);

  std::optional<OutputFile> out, json, svg;
  if (!o.outPath.empty()) {
    out.emplace(o.outPath);
    writeTrajectories(scene, withOrca, *out);
  }
  if (!o.jsonPath.empty()) {
    json.emplace(o.jsonPath);
    nlohmann::json doc = {{"scene",
                           {{"source", scene.source},
                            {"pedestrians", scene.tracks.size()},
                            {"annotations", scene.rows},
                            {"instants", scene.instants},
                            {"frameGap", scene.frameGap},
                            {"mostAtOnce", scene.mostAtOnce()}}},
                          {"options",
                           {{"frameTime", o.run.frameTime},
                            {"substeps", o.run.substeps},
                            {"radius", o.run.params.radius},
                            {"timeHorizon", o.run.params.timeHorizon},
                            {"neighborDist", o.run.params.neighborDist},
                            {"maxNeighbors", o.run.params.maxNeighbors},
                            {"maxSpeedFactor", o.run.maxSpeedFactor},
                            {"pace", o.pace},
                            {"seed", o.run.seed},
                            {"contactDistance", contact}}}};
    for (const Column& c : columns) doc[c.key] = toJson(c.stats);
    // A file name that is not UTF-8 is written with replacement characters rather than refused.
    std::fprintf(json->stream(), "%s\n",
                 doc.dump(2, ' ', false, nlohmann::json::error_handler_t::replace).c_str());
  }
  if (!o.svgPath.empty()) {
    svg.emplace(o.svgPath);
    writePicture(scene, recorded, withOrca, *svg);
  }
  commitOutputs({&out, &json, &svg});
  return kExitSuccess;
}

}  // namespace

Command realismCommand() {
  auto options = std::make_shared<RealismCommandOptions>();
  return Command{"realism",
                 "Re-enact a recorded pedestrian scene (ETH/UCY format) and compare it with the recording",
                 [options](CLI::App& app) { addRealismOptions(app, *options); },
                 [options] { return runRealism(*options); }};
}

}  // namespace crowd::cli
