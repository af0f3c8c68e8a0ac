// crowdsim measure: runs a planar scenario that declares measurement areas and lines ("measure")
// and prints its fundamental diagram: for each area the classic and Voronoi density, the speed and
// the flow averaged over windows of time, beside Weidmann's speed at that density; for each line
// its crossings (the N-t curve) and flow per window. Optionally the rows as CSV and a picture of
// speed against density with Weidmann's curve (SVG). Bad input or usage (exit code 2): a scenario
// without "measure", bad options or an output path that cannot be written; 1 when writing fails.
#include <omp.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include <crowd/measurement.hpp>
#include <crowd/measurement_sampler.hpp>
#include <crowd/output_file.hpp>
#include <crowd/scenario.hpp>
#include <crowd/stop_request.hpp>

#include "command.hpp"
#include "exit_codes.hpp"
#include "measurement_summary.hpp"
#include "options.hpp"
#include "output_paths.hpp"
#include "stop_signals.hpp"
#include "svg_to_png.hpp"
#include "targets.hpp"
#include "xml_text.hpp"

namespace crowd::cli {
namespace {

struct MeasureOptions {
  std::string scenarioPath;
  std::optional<double> from;  // s; default 0.
  std::optional<double> to;    // s; default the end of the run.
  double window = 5.0;         // s.
  std::string csvPath;
  std::string svgPath;
  bool png = false;
  std::optional<std::int64_t> steps;
  int threads = 0;
  std::string backend = "auto";
};

struct Window {
  double from = 0;
  double to = 0;
};

// [from, to) in steps of `width`, the last one cut at `to`. Sample times add up float time steps,
// so the run's end lies a hair past a multiple of the interval: a remainder shorter than half an
// interval is no window of its own.
std::vector<Window> windowsOf(double from, double to, double width, double interval) {
  std::vector<Window> windows;
  for (std::size_t k = 0;; ++k) {
    const double a = from + static_cast<double>(k) * width;
    if (!(a < to - 0.5 * interval)) break;
    windows.push_back(Window{a, std::min(a + width, to)});
  }
  return windows;
}

struct AreaRow {
  Window window;
  std::optional<FundamentalPoint> classic;  // None: nobody was inside in the window.
  std::optional<FundamentalPoint> voronoi;
};

// A row's figures as the table and the CSV show them: none where nobody was inside.
struct AreaColumns {
  std::optional<double> density, speed, flow, weidmann, voronoiDensity, voronoiSpeed;
};

AreaColumns columnsOf(const AreaRow& r) {
  AreaColumns c;
  if (r.classic) {
    c.density = r.classic->density;
    c.speed = r.classic->speed;
    c.flow = r.classic->flow;
    c.weidmann = weidmannSpeed(r.classic->density);
  }
  if (r.voronoi) {
    c.voronoiDensity = r.voronoi->density;
    c.voronoiSpeed = r.voronoi->speed;
  }
  return c;
}

// Samples lie near multiples of the interval; each window takes those from half an interval
// before its start to half an interval before its end (the last one: after it), so that every
// sample falls in exactly one window.
AreaRow areaRow(const AreaSeries& area, Window w, double interval, bool last) {
  const double t0 = w.from - 0.5 * interval;
  const double t1 = w.to + (last ? 0.5 : -0.5) * interval;
  return AreaRow{w, meanFundamental(area, false, t0, t1), meanFundamental(area, true, t0, t1)};
}

struct LineRow {
  Window window;
  std::int64_t forward = 0;  // Crossings in (from, to].
  std::int64_t backward = 0;
  std::int64_t forwardSoFar = 0;  // N(t) at `to`: every crossing up to it.
  std::int64_t backwardSoFar = 0;
};

LineRow lineRow(const LineSeries& line, Window w) {
  LineRow row{w};
  for (const LineCrossing& c : line.crossings) {
    if (c.time > w.to) continue;
    const bool inside = c.time > w.from;
    if (c.direction > 0) {
      row.forwardSoFar += 1;
      row.forward += inside ? 1 : 0;
    } else {
      row.backwardSoFar += 1;
      row.backward += inside ? 1 : 0;
    }
  }
  return row;
}

std::string fixed(const std::optional<double>& value, const char* format = "%.3f") {
  if (!value) return "-";
  char text[32];
  std::snprintf(text, sizeof text, format, *value);
  return text;
}

void printArea(const AreaSeries& area, const std::vector<AreaRow>& rows) {
  std::printf("\narea \"%s\" (%.2f m^2)\n", area.name.c_str(), area.area);
  std::printf("%8s %8s %9s %9s %9s %9s %9s %9s\n", "from", "to", "density", "Voronoi", "speed", "Voronoi",
              "flow", "Weidmann");
  std::printf("%8s %8s %9s %9s %9s %9s %9s %9s\n", "s", "s", "P/m^2", "P/m^2", "m/s", "m/s", "P/(m s)",
              "m/s");
  for (const AreaRow& r : rows) {
    const AreaColumns c = columnsOf(r);
    std::printf("%8.2f %8.2f %9s %9s %9s %9s %9s %9s\n", r.window.from, r.window.to, fixed(c.density).c_str(),
                fixed(c.voronoiDensity).c_str(), fixed(c.speed).c_str(), fixed(c.voronoiSpeed).c_str(),
                fixed(c.flow).c_str(), fixed(c.weidmann).c_str());
  }
}

void printLine(const LineSeries& line, const std::vector<LineRow>& rows, Window span) {
  std::int64_t forward = 0, backward = 0;
  std::optional<double> first, last;
  for (const LineCrossing& c : line.crossings) {
    if (c.time <= span.from || c.time > span.to) continue;
    (c.direction > 0 ? forward : backward) += 1;
    if (!first) first = c.time;
    last = c.time;
  }
  std::printf("\nline \"%s\" (%.2f m): %lld crossed forward, %lld backward from %.2f to %.2f s",
              line.name.c_str(), line.length, static_cast<long long>(forward),
              static_cast<long long>(backward), span.from, span.to);
  if (first) std::printf(", first at %.2f s, last at %.2f s", *first, *last);
  std::printf("; flow %.3f P/s (%.3f P/(m s)) forward, %.3f P/s backward\n",
              flowRate(line, span.from, span.to), specificFlow(line, span.from, span.to),
              flowRate(line, span.from, span.to, FlowDirection::Backward));
  std::printf("%8s %8s %9s %9s %9s %9s %9s %9s\n", "from", "to", "forward", "backward", "N fwd", "N bwd",
              "flow", "flow");
  std::printf("%8s %8s %9s %9s %9s %9s %9s %9s\n", "s", "s", "P", "P", "P", "P", "P/s", "P/(m s)");
  for (const LineRow& r : rows) {
    const double seconds = r.window.to - r.window.from;
    const double flow = static_cast<double>(r.forward) / seconds;
    std::printf("%8.2f %8.2f %9lld %9lld %9lld %9lld %9.3f %9.3f\n", r.window.from, r.window.to,
                static_cast<long long>(r.forward), static_cast<long long>(r.backward),
                static_cast<long long>(r.forwardSoFar), static_cast<long long>(r.backwardSoFar), flow,
                flow / line.length);
  }
}

// A CSV field: quoted when it holds a comma, a quote or a line break.
std::string csvField(const std::string& text) {
  if (text.find_first_of(",\"\n\r") == std::string::npos) return text;
  std::string out = "\"";
  for (const char c : text) out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

std::string csvNumber(const std::optional<double>& value) {
  return value ? fixed(value, "%.6g") : std::string();
}

void writeCsv(const Measurements& m, const std::vector<std::vector<AreaRow>>& areaRows,
              const std::vector<std::vector<LineRow>>& lineRows, OutputFile& out) {
  std::FILE* f = out.stream();
  std::fprintf(f,
               "kind,name,from_s,to_s,density_per_m2,voronoi_density_per_m2,speed_m_per_s,"
               "voronoi_speed_m_per_s,flow_per_m_s,weidmann_speed_m_per_s,forward,backward,"
               "forward_so_far,backward_so_far,flow_per_s,specific_flow_per_m_s\n");
  for (std::size_t a = 0; a < areaRows.size(); ++a) {
    for (const AreaRow& r : areaRows[a]) {
      const AreaColumns c = columnsOf(r);
      std::fprintf(f, "area,%s,%.6g,%.6g,%s,%s,%s,%s,%s,%s,,,,,,\n", csvField(m.areas()[a].name).c_str(),
                   r.window.from, r.window.to, csvNumber(c.density).c_str(),
                   csvNumber(c.voronoiDensity).c_str(), csvNumber(c.speed).c_str(),
                   csvNumber(c.voronoiSpeed).c_str(), csvNumber(c.flow).c_str(),
                   csvNumber(c.weidmann).c_str());
    }
  }
  for (std::size_t l = 0; l < lineRows.size(); ++l) {
    const LineSeries& line = m.lines()[l];
    for (const LineRow& r : lineRows[l]) {
      const double flow = static_cast<double>(r.forward) / (r.window.to - r.window.from);
      std::fprintf(f, "line,%s,%.6g,%.6g,,,,,,,%lld,%lld,%lld,%lld,%.6g,%.6g\n", csvField(line.name).c_str(),
                   r.window.from, r.window.to, static_cast<long long>(r.forward),
                   static_cast<long long>(r.backward), static_cast<long long>(r.forwardSoFar),
                   static_cast<long long>(r.backwardSoFar), flow, flow / line.length);
    }
  }
}

// Speed against classic density: every sample in the span as a dot, each window's mean as a ring,
// one colour per area, over Weidmann's curve.
void writePicture(const std::string& title, const Measurements& m,
                  const std::vector<std::vector<AreaRow>>& areaRows, Window span, OutputFile& out) {
  std::vector<std::vector<FundamentalPoint>> samples;
  double densityMax = 6.0, speedMax = 1.5;
  for (const AreaSeries& area : m.areas()) {
    std::vector<FundamentalPoint> points;
    for (const FundamentalPoint& p : fundamentalDiagram(area, false)) {
      if (p.time < span.from || p.time > span.to) continue;
      points.push_back(p);
      densityMax = std::max(densityMax, p.density);
      speedMax = std::max(speedMax, p.speed);
    }
    samples.push_back(std::move(points));
  }
  densityMax = std::ceil(densityMax);
  speedMax = std::ceil(speedMax * 1.05 * 4.0) / 4.0;
  const double left = 64, right = 180, top = 40, bottom = 50, plotW = 640, plotH = 400;
  const auto x = [&](double density) { return left + density / densityMax * plotW; };
  const auto y = [&](double speed) { return top + plotH - speed / speedMax * plotH; };
  std::FILE* f = out.stream();
  std::fprintf(f,
               "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" "
               "font-family=\"sans-serif\">\n",
               left + plotW + right, top + plotH + bottom);
  std::fprintf(f, "<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n");
  std::fprintf(
      f, "<text x=\"%.0f\" y=\"24\" font-size=\"14\">%s: speed against density, %.1f to %.1f s</text>\n",
      left, escapeXml(title).c_str(), span.from, span.to);
  for (int k = 0; k <= static_cast<int>(densityMax); ++k) {
    std::fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#e4e4e4\"/>\n", x(k), top,
                 x(k), top + plotH);
    std::fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"11\" text-anchor=\"middle\">%d</text>\n", x(k),
                 top + plotH + 16, k);
  }
  for (double s = 0.0; s <= speedMax + 1e-9; s += 0.25) {
    std::fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#e4e4e4\"/>\n", left,
                 y(s), left + plotW, y(s));
    std::fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"11\" text-anchor=\"end\">%.2f</text>\n",
                 left - 6, y(s) + 4, s);
  }
  std::fprintf(
      f, "<rect x=\"%.0f\" y=\"%.0f\" width=\"%.0f\" height=\"%.0f\" fill=\"none\" stroke=\"black\"/>\n",
      left, top, plotW, plotH);
  std::fprintf(f,
               "<text x=\"%.1f\" y=\"%.1f\" font-size=\"12\" text-anchor=\"middle\">density (P/m^2)</text>\n",
               left + plotW / 2, top + plotH + 38);
  std::fprintf(f,
               "<text x=\"16\" y=\"%.1f\" font-size=\"12\" text-anchor=\"middle\" "
               "transform=\"rotate(-90 16 %.1f)\">speed (m/s)</text>\n",
               top + plotH / 2, top + plotH / 2);
  std::fprintf(f, "<polyline fill=\"none\" stroke=\"black\" stroke-width=\"2\" points=\"");
  for (int k = 0; k <= 400; ++k) {
    const double density = densityMax * k / 400.0;
    std::fprintf(f, "%.1f,%.1f ", x(density), y(weidmannSpeed(density)));
  }
  std::fprintf(f, "\"/>\n");
  const double legendX = left + plotW + 16;
  std::fprintf(
      f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"black\" stroke-width=\"2\"/>\n",
      legendX, top + 10, legendX + 20, top + 10);
  std::fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"12\">Weidmann</text>\n", legendX + 26, top + 14);
  for (std::size_t a = 0; a < samples.size(); ++a) {
    char colour[48];
    std::snprintf(colour, sizeof colour, "hsl(%.0f,70%%,45%%)",
                  std::fmod(210.0 + 137.508 * static_cast<double>(a), 360.0));
    for (const FundamentalPoint& p : samples[a]) {
      std::fprintf(f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"2\" fill=\"%s\" fill-opacity=\"0.3\"/>\n",
                   x(p.density), y(p.speed), colour);
    }
    for (const AreaRow& r : areaRows[a]) {
      if (!r.classic) continue;
      std::fprintf(f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"5\" fill=\"%s\" stroke=\"black\"/>\n",
                   x(r.classic->density), y(r.classic->speed), colour);
    }
    const double rowY = top + 34 + 20 * static_cast<double>(a);
    std::fprintf(f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"5\" fill=\"%s\" stroke=\"black\"/>\n", legendX + 10,
                 rowY - 4, colour);
    std::fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"12\">%s</text>\n", legendX + 26, rowY,
                 escapeXml(m.areas()[a].name).c_str());
  }
  std::fprintf(f, "</svg>\n");
}

void addMeasureOptions(CLI::App& command, MeasureOptions& o) {
  command.add_option("scenario", o.scenarioPath, "A planar scenario file with a \"measure\" key")->required();
  command.add_option("--from", o.from, "Start of the diagram, s (default 0)")->check(CLI::NonNegativeNumber);
  command.add_option("--to", o.to, "End of the diagram, s (default: the end of the run)")
      ->check(CLI::NonNegativeNumber);
  command
      .add_option("--window", o.window, "Seconds each row averages over (at least the scenario's interval)")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  command.add_option("--csv", o.csvPath, "Write every row as CSV")->check(kPathGiven);
  CLI::Option* svg =
      command.add_option("--svg", o.svgPath, "Draw speed against density with Weidmann's curve (SVG)")
          ->check(kPathGiven);
  command
      .add_flag("--png", o.png, "With --svg: a PNG beside it (drawn by rsvg-convert, Debian's librsvg2-bin)")
      ->needs(svg);
  command.add_option("--steps", o.steps, "Steps to run (overrides the scenario's 'steps'); a whole number")
      ->check(wholeNumberUpTo(static_cast<std::uint64_t>(INT64_MAX)));
  addThreadsOption(command, o.threads);
  addBackendOption(command, o.backend);
  command.footer(
      "Runs the scenario (every step, or until no agent is left) observing its areas and lines every\n"
      "\"interval\" of simulated time, then prints, for each area, one row per window of --window seconds\n"
      "from --from to --to: the classic density (persons inside / area), the Voronoi density, the mean\n"
      "speed of those inside and its Voronoi counterpart, the flow (density x speed, per metre), each the\n"
      "mean over the window's samples with someone inside ('-': nobody was), and Weidmann's speed at the\n"
      "classic density, v = 1.34 (1 - exp(-1.913 (1/rho - 1/5.4))) m/s, 0 from 5.4 P/m^2 on.\n"
      "For each line: the crossings forward (along the line's left normal) and backward from --from to\n"
      "--to, the first and last, the flow over the span, and one row per window with the crossings in it,\n"
      "the N-t curve at its end (N fwd, N bwd: every crossing since the start of the run) and the forward\n"
      "flow, per second and per metre of line.\n"
      "--csv: kind,name,from_s,to_s, then the area figures (density_per_m2, voronoi_density_per_m2,\n"
      "speed_m_per_s, voronoi_speed_m_per_s, flow_per_m_s, weidmann_speed_m_per_s) or the line figures\n"
      "(forward, backward, forward_so_far, backward_so_far, flow_per_s, specific_flow_per_m_s), the\n"
      "other kind's fields empty. --svg: every sample's classic density and speed as a dot, each\n"
      "window's mean as a ring, one colour per area, over Weidmann's curve.");
}

// Both outputs writable, distinct, and neither `input`, a file the run reads (`inputKind`).
void checkMeasureOutputs(const MeasureOptions& o, const std::string& input, const char* inputKind) {
  checkOutputPaths({{"--csv", o.csvPath}, {"--svg", o.svgPath}}, {input}, inputKind);
}

int runMeasure(const MeasureOptions& o) {
  catchStopSignals();
  const BackendKind backend = backendNamed(o.backend);
  requireBackend(backend);
  checkMeasureOutputs(o, o.scenarioPath, "the scenario file");
  for (const std::optional<double>& value : {o.from, o.to, std::optional<double>(o.window)}) {
    if (value && !std::isfinite(*value))
      throw std::invalid_argument("--from, --to and --window take finite numbers");
  }
  if (o.from && o.to && !(*o.to > *o.from)) {
    throw std::invalid_argument("--to " + fixed(o.to, "%g") + " must be after --from " + fixed(o.from, "%g"));
  }
  const std::vector<std::string> target{o.scenarioPath};
  if (isTarget3d(target)) {
    throw ScenarioError(o.scenarioPath +
                        ": a 3D scenario, and measurement areas and lines are planar for now");
  }
  Scenario scenario = loadScenarioTarget(target, std::nullopt, std::nullopt, "", std::nullopt);
  checkMeasureOutputs(o, scenario.mapFile, "the scenario's map file");
  warn(scenario.warnings);
  if (!scenario.measure) {
    throw ScenarioError(
        o.scenarioPath +
        ": no \"measure\" key, so no areas or lines to measure (see docs/scenario-format.md)");
  }
  if (o.steps) scenario.steps = *o.steps;
  const double runEnd = static_cast<double>(scenario.steps) * scenario.timeStep;
  const double from = o.from.value_or(0.0);
  if (from >= runEnd) {
    throw std::invalid_argument("--from " + fixed(from, "%g") + " is at or past the end of the run (" +
                                fixed(runEnd, "%g") + " s)");
  }
  if (o.window < scenario.measure->interval) {
    throw std::invalid_argument("--window " + fixed(o.window, "%g") +
                                " is shorter than the measurement interval (" +
                                fixed(scenario.measure->interval, "%g") + " s)");
  }
  Simulator sim = makeSimulator(scenario, o.threads, backend);
  sim.prepare();
  const int threads = o.threads > 0 ? o.threads : omp_get_max_threads();
  MeasurementPlan plan = *scenario.measure;
  plan.threads = threads;
  MeasurementSampler sampler(std::move(plan), sim);
  for (std::int64_t s = 0; s < scenario.steps && sim.agentCount() > 0; ++s) {
    throwIfStopRequested(s);
    sim.step();
    sampler.afterStep(sim);
  }
  const Measurements& m = sampler.measurements();
  const MeasuredSpan measured = measuredSpan(m);
  const Window span{from, std::min(o.to.value_or(measured.last), measured.last)};
  const std::vector<Window> windows = windowsOf(span.from, span.to, o.window, m.plan().interval);
  if (windows.empty()) {
    // The run stops early once no agent is left, or --to lies within half an interval of --from.
    throw std::runtime_error("no samples from " + fixed(from, "%g") + " to " + fixed(span.to, "%g") +
                             " s to average (the samples end at " + fixed(measured.last, "%g") + " s)");
  }
  std::vector<std::vector<AreaRow>> areaRows;
  for (const AreaSeries& area : m.areas()) {
    std::vector<AreaRow>& rows = areaRows.emplace_back();
    for (std::size_t k = 0; k < windows.size(); ++k) {
      rows.push_back(areaRow(area, windows[k], m.plan().interval, k + 1 == windows.size()));
    }
  }
  std::vector<std::vector<LineRow>> lineRows;
  for (const LineSeries& line : m.lines()) {
    std::vector<LineRow>& rows = lineRows.emplace_back();
    for (const Window& w : windows) rows.push_back(lineRow(line, w));
  }

  std::printf("%s: %zu agents, %lld steps of %g s on %s (%d threads), sampled every %g s\n",
              scenario.name.c_str(), scenario.agents.size(), static_cast<long long>(sim.stepCount()),
              static_cast<double>(scenario.timeStep), sim.backendName().c_str(), threads, m.plan().interval);
  std::printf("fundamental diagram from %.2f to %.2f s in windows of %g s\n", span.from, span.to, o.window);
  for (std::size_t a = 0; a < areaRows.size(); ++a) printArea(m.areas()[a], areaRows[a]);
  for (std::size_t l = 0; l < lineRows.size(); ++l) printLine(m.lines()[l], lineRows[l], span);

  std::optional<OutputFile> csv, svg;
  if (!o.csvPath.empty()) {
    csv.emplace(o.csvPath);
    writeCsv(m, areaRows, lineRows, *csv);
  }
  if (!o.svgPath.empty()) {
    svg.emplace(o.svgPath);
    writePicture(scenario.name, m, areaRows, span, *svg);
  }
  commitOutputs({&csv, &svg});
  if (o.png) {
    const std::string png = std::filesystem::path(o.svgPath).replace_extension(".png").string();
    if (const std::string problem = svgToPng(o.svgPath, png); !problem.empty()) {
      std::fprintf(stderr, "crowdsim measure: %s\n", problem.c_str());
      return kExitFailure;
    }
    std::printf("wrote %s\n", png.c_str());
  }
  return kExitSuccess;
}

}  // namespace

Command measureCommand() {
  auto options = std::make_shared<MeasureOptions>();
  return Command{"measure",
                 "Run a scenario with measurement areas and lines and print its fundamental diagram",
                 [options](CLI::App& app) { addMeasureOptions(app, *options); },
                 [options] { return runMeasure(*options); }};
}

}  // namespace crowd::cli
