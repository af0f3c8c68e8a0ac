// The figures of crowdsim verify --svg-dir: each model's fundamental diagram over Weidmann's
// curve, and each model's bottleneck flows over the experiments'. Plain SVG: axes with ticks,
// the reference as a grey curve or grey points, each model in its own colour.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "reference_data.hpp"
#include "report.hpp"

namespace crowd::cli::verify {
namespace {

const char* modelColour(Model model) {
  switch (model) {
    case Model::Csm:
      return "#1f77b4";
    case Model::SocialForce:
      return "#d62728";
    case Model::OrcaDensity:
      return "#2ca02c";
    case Model::Orca:
      return "#9467bd";
  }
  return "black";
}

// One panel: data coordinates [x0, x1] x [y0, y1] drawn into the pixel box at (left, top).
struct Panel {
  std::FILE* out;
  double left, top, width, height;
  double x0, x1, y0, y1;

  double px(double x) const { return left + (x - x0) / (x1 - x0) * width; }
  double py(double y) const { return top + height - (y - y0) / (y1 - y0) * height; }

  void axes(const char* xLabel, const char* yLabel, double xTick, double yTick) const {
    std::fprintf(
        out, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"none\" stroke=\"black\"/>\n",
        left, top, width, height);
    for (double x = x0; x <= x1 + 1e-9; x += xTick) {
      std::fprintf(out,
                   "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#ddd\"/>"
                   "<text x=\"%.1f\" y=\"%.1f\" font-size=\"11\" text-anchor=\"middle\">%g</text>\n",
                   px(x), top, px(x), top + height, px(x), top + height + 14, x);
    }
    for (double y = y0; y <= y1 + 1e-9; y += yTick) {
      std::fprintf(out,
                   "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#ddd\"/>"
                   "<text x=\"%.1f\" y=\"%.1f\" font-size=\"11\" text-anchor=\"end\">%g</text>\n",
                   left, py(y), left + width, py(y), left - 4, py(y) + 4, y);
    }
    std::fprintf(out, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"12\" text-anchor=\"middle\">%s</text>\n",
                 left + width / 2, top + height + 32, xLabel);
    std::fprintf(out,
                 "<text x=\"%.1f\" y=\"%.1f\" font-size=\"12\" text-anchor=\"middle\" "
                 "transform=\"rotate(-90 %.1f %.1f)\">%s</text>\n",
                 left - 36, top + height / 2, left - 36, top + height / 2, yLabel);
  }

  void curve(const std::vector<double>& xs, const std::vector<double>& ys, const char* style) const {
    std::fprintf(out, "<polyline fill=\"none\" %s points=\"", style);
    for (std::size_t i = 0; i < xs.size(); ++i) std::fprintf(out, "%.1f,%.1f ", px(xs[i]), py(ys[i]));
    std::fprintf(out, "\"/>\n");
  }

  void dot(double x, double y, const char* colour, double radius = 3.5) const {
    if (x < x0 || x > x1 || y < y0 || y > y1) return;
    std::fprintf(out, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"%.1f\" fill=\"%s\" fill-opacity=\"0.75\"/>\n",
                 px(x), py(y), radius, colour);
  }
};

// A tick spacing that puts at most about ten ticks on an axis from 0 to `most`.
double niceTick(double most) {
  for (const double step : {0.2, 0.4, 0.5, 1.0, 2.0, 5.0, 10.0}) {
    if (most / step <= 10.0) return step;
  }
  return std::ceil(most / 10.0);
}

void legend(std::FILE* out, double x, double y,
            const std::vector<std::pair<std::string, std::string>>& entries) {
  for (std::size_t i = 0; i < entries.size(); ++i) {
    const double row = y + 16.0 * static_cast<double>(i);
    std::fprintf(out,
                 "<rect x=\"%.1f\" y=\"%.1f\" width=\"10\" height=\"10\" fill=\"%s\"/>"
                 "<text x=\"%.1f\" y=\"%.1f\" font-size=\"12\">%s</text>\n",
                 x, row - 9, entries[i].second.c_str(), x + 14, row, entries[i].first.c_str());
  }
}

void header(std::FILE* out, double width, double height, const char* title) {
  std::fprintf(out, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\">\n", width,
               height);
  std::fprintf(out, "<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n");
  std::fprintf(out, "<text x=\"20\" y=\"22\" font-family=\"sans-serif\" font-size=\"14\">%s</text>\n", title);
  std::fprintf(out, "<g font-family=\"sans-serif\">\n");
}

const Series* seriesNamed(const Result& result, const char* name) {
  for (const Series& s : result.series) {
    if (s.name == name) return &s;
  }
  return nullptr;
}

std::vector<const Row*> figureRows(const std::vector<Row>& rows, const char* id) {
  std::vector<const Row*> found;
  for (const Row& row : rows) {
    if (std::string(row.test->id) == id && !row.result.series.empty()) found.push_back(&row);
  }
  return found;
}

}  // namespace

bool hasFigure(const std::vector<Row>& rows, const char* id) {
  return !figureRows(rows, id).empty();
}

bool writeFundamentalDiagram(std::FILE* out, const std::vector<Row>& rows) {
  const std::vector<const Row*> found = figureRows(rows, kFundamentalDiagramId);
  if (found.empty()) return false;
  header(
      out, 1100, 440,
      "RiMEA 4: speed and specific flow against density in the 2 x 2 m area, each seed and density a point;"
      " grey: Weidmann (1993)");
  // Room for Weidmann's curve, and more where a model walks or flows faster.
  double mostSpeed = 1.6, mostFlow = 2.4, mostDensity = 7;
  for (const Row* row : found) {
    for (const Series& s : row->result.series) {
      double& most = s.name == "speed" ? mostSpeed : mostFlow;
      for (const double y : s.y) most = std::max(most, y);
      for (const double x : s.x) mostDensity = std::max(mostDensity, std::ceil(x));
    }
  }
  mostSpeed = std::ceil(mostSpeed * 5.0) / 5.0;
  mostFlow = std::ceil(mostFlow);
  const Panel speed{out, 70, 50, 380, 320, 0, mostDensity, 0, mostSpeed};
  const Panel flow{out, 540, 50, 380, 320, 0, mostDensity, 0, mostFlow};
  speed.axes("density (P/m2)", "speed (m/s)", 1, 0.2);
  flow.axes("density (P/m2)", "specific flow (1/(m s))", 1, niceTick(mostFlow));
  std::vector<double> xs, vs, js;
  for (double rho = 0.05; rho <= mostDensity; rho += 0.05) {
    xs.push_back(rho);
    vs.push_back(weidmannSpeed(rho));
    js.push_back(rho * weidmannSpeed(rho));
  }
  speed.curve(xs, vs, "stroke=\"#888\" stroke-width=\"2.5\"");
  flow.curve(xs, js, "stroke=\"#888\" stroke-width=\"2.5\"");
  std::vector<std::pair<std::string, std::string>> entries{{"Weidmann", "#888"}};
  for (const Row* row : found) {
    const char* colour = modelColour(row->model);
    if (const Series* s = seriesNamed(row->result, "speed")) {
      for (std::size_t i = 0; i < s->x.size(); ++i) speed.dot(s->x[i], s->y[i], colour);
    }
    if (const Series* s = seriesNamed(row->result, "flow")) {
      for (std::size_t i = 0; i < s->x.size(); ++i) flow.dot(s->x[i], s->y[i], colour);
    }
    entries.emplace_back(modelLabel(row->model), colour);
  }
  legend(out, 950, 70, entries);
  std::fprintf(out, "</g>\n</svg>\n");
  return true;
}

bool writeBottleneckFlow(std::FILE* out, const std::vector<Row>& rows) {
  const std::vector<const Row*> found = figureRows(rows, kWidthSeriesId);
  if (found.empty()) return false;
  double mostFlow = 6;
  for (const Row* row : found) {
    if (const Series* s = seriesNamed(row->result, "flow")) {
      for (const double y : s->y) mostFlow = std::max(mostFlow, std::ceil(y));
    }
  }
  header(out, 640, 460, "Flow through a door against its width: grey, Kretz et al. 2006; dashed, J = 1.9 b");
  const Panel panel{out, 70, 50, 520, 340, 0, 2.6, 0, mostFlow};
  panel.axes("door width b (m)", "flow J (persons/s)", 0.2, niceTick(mostFlow));
  for (const BottleneckPoint& p : kKretz2006) panel.dot(p.width, p.flow, "#999", 3);
  panel.curve({0.0, 2.6}, {0.0, 2.6 * kBottleneckSpecificFlow},
              "stroke=\"#666\" stroke-width=\"1.5\" stroke-dasharray=\"6 4\"");
  std::vector<std::pair<std::string, std::string>> entries{{"Kretz 2006", "#999"}, {"1.9 b", "#666"}};
  for (const Row* row : found) {
    const char* colour = modelColour(row->model);
    const Series* s = seriesNamed(row->result, "flow");
    if (s == nullptr) continue;
    for (std::size_t i = 0; i < s->x.size(); ++i) panel.dot(s->x[i], s->y[i], colour, 4);
    entries.emplace_back(modelLabel(row->model), colour);
  }
  legend(out, 90, 70, entries);
  std::fprintf(out, "</g>\n</svg>\n");
  return true;
}

}  // namespace crowd::cli::verify
