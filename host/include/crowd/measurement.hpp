// Measurement areas and lines, as pedestrian engineers measure a crowd (the definitions of PedPy,
// the Juelich analysis library): inside a polygon, the density and speed of those inside and their
// Voronoi counterparts; across a line, every crossing with its time and direction, the N-t curve
// and the flow. Measurements work from the agents' ids, positions and velocities at sampling
// instants the caller chooses, so they follow any backend (and recordings alike).
//
// Units: metres, seconds, persons. Densities in persons/m^2, speeds in m/s, flows in persons/s,
// specific flows in persons/(m s).
//
// Walls are ignored: a Voronoi cell is cut only by the disc of radius voronoiCutOff around its
// agent, never by an obstacle, so near a wall a cell may reach through it. Draw areas away from
// walls (or accept that agents beyond a thin wall share the area's pixels).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include <crowd/agent_id.hpp>
#include <crowd/kernels/periodic.hpp>
#include <crowd/kernels/vec2.hpp>

namespace crowd {

/// Weidmann's fundamental diagram (Weidmann 1993, in Kladek's form), the reference a measured
/// speed is compared with: v(rho) = 1.34 (1 - exp(-1.913 (1/rho - 1/5.4))) m/s, 1.34 at no
/// density and 0 from 5.4 P/m^2 up. The density-aware preferred speed (kernels/density_speed.hpp)
/// follows the same curve in float.
double weidmannSpeed(double density);

/// A measurement area: a simple polygon (at least 3 vertices, either orientation, non-zero area,
/// no edge touching another but its neighbours).
struct MeasurementArea {
  std::string name;
  std::vector<Vec2> polygon;
};

/// A measurement line from `from` to `to`. Crossings count as forward in the direction of the
/// line's left normal ((to - from) turned by +90 degrees), backward against it. A point on the
/// line counts as behind it (not yet forward).
struct MeasurementLine {
  std::string name;
  Vec2 from{0.0f, 0.0f};
  Vec2 to{0.0f, 0.0f};
};

/// What to measure, and how finely.
struct MeasurementPlan {
  std::vector<MeasurementArea> areas;  ///< Names unique among the areas.
  std::vector<MeasurementLine> lines;  ///< Names unique among the lines.
  /// Seconds between samples: what the caller is meant to observe at (recorded with the results;
  /// Measurements itself takes whatever instants it is given).
  double interval = 0.1;
  /// Radius (m) of the disc that cuts each agent's Voronoi cell, so that an agent alone in the
  /// open does not own the whole plane (PedPy's cut_off).
  float voronoiCutOff = 1.0f;
  /// Side (m) of the pixels Voronoi cells are counted in: at least kMinVoronoiResolution and at
  /// most a fifth of the cut-off; each area must hold at least kMinAreaPixels of them.
  float voronoiResolution = 0.02f;
  int threads = 0;  ///< CPU threads for the Voronoi raster; 0 uses OpenMP's default.
  /// Where the world repeats along x, in the plan's coordinates (MeasurementSampler sets the
  /// simulator's): a step out at one end and in at the other crosses no line in between.
  PeriodicBoundary periodic{};
};

inline constexpr float kMinVoronoiResolution = 0.001f;
/// Fewer pixels than this and an area's Voronoi figures would be mostly rounding.
inline constexpr double kMinAreaPixels = 100.0;
/// Pixels per area (its bounding box grown by twice the cut-off on every side). A sample costs
/// about (rows of pixels) x (agents within a cut-off of a row) x log of them, whatever the
/// pixels per row: this bounds the lattice, not the crowd.
inline constexpr double kMaxAreaPixels = 16.0e6;
inline constexpr std::size_t kMaxAreaVertices = 4096;

/// Empty when the plan can be measured; otherwise a sentence naming the first problem found
/// (an empty or repeated name, a degenerate or self-crossing polygon, a zero-length line, a
/// non-finite coordinate, a non-positive interval or cut-off, a resolution too coarse or too fine,
/// an area with too many pixels).
std::string checkMeasurementPlan(const MeasurementPlan& plan);

/// One area's figures, one entry per observed instant.
struct AreaSeries {
  std::string name;
  double area = 0;                  ///< m^2, of the polygon.
  std::vector<double> time;         ///< s.
  std::vector<std::int64_t> count;  ///< Agents inside (even-odd rule).
  std::vector<double> density;      ///< Classic: count / area.
  std::vector<double> speed;        ///< Mean |v| of those inside; 0 when nobody is (see count).
  /// Voronoi density, sum_i |V_i & A| / (|V_i| |A|), where V_i is agent i's Voronoi cell cut by
  /// the disc of the cut-off and V_i & A its part in the area. Areas are counted in pixels of the
  /// plan's resolution, |A| included, so that cells covering the area give exactly
  /// sum_i (share of V_i inside) / |A|.
  std::vector<double> voronoiDensity;
  /// Voronoi speed, sum_i |v_i| |V_i & A| / |A| (0 when no cell reaches the area): the mean speed
  /// weighted by the share of the area each agent's cell covers. As in PedPy, parts of the area
  /// no cell covers (agents sparser than the cut-off) count as standing still.
  std::vector<double> voronoiSpeed;
};

/// One crossing of a line between two observations, at the instant interpolated linearly.
struct LineCrossing {
  double time = 0;     ///< s.
  AgentId id;          ///< Who crossed.
  int direction = +1;  ///< +1 along the line's left normal, -1 against it.
};

/// One line's crossings and its N-t curve, one entry per observed instant.
struct LineSeries {
  std::string name;
  double length = 0;                    ///< m.
  std::vector<LineCrossing> crossings;  ///< In time order (ties by agent index).
  std::vector<double> time;             ///< s, the observed instants.
  std::vector<std::int64_t> forward;    ///< Forward crossings up to and including each instant.
  std::vector<std::int64_t> backward;   ///< Backward crossings likewise.
};

enum class FlowDirection { Forward, Backward, Net };  ///< Net: forward minus backward.

/// Persons per second crossing in (t0, t1], as the N-t curve counts them; 0 when t1 <= t0.
double flowRate(const LineSeries& line, double t0, double t1,
                FlowDirection direction = FlowDirection::Forward);
/// flowRate per metre of line: persons/(m s).
double specificFlow(const LineSeries& line, double t0, double t1,
                    FlowDirection direction = FlowDirection::Forward);
/// Persons per second over each sample interval (time[k - 1], time[k]]: one entry fewer than
/// the instants observed.
std::vector<double> flowPerInterval(const LineSeries& line, FlowDirection direction = FlowDirection::Forward);

/// One sample of the fundamental diagram: flow = density * speed (persons/(m s)).
struct FundamentalPoint {
  double time = 0;  ///< s.
  double density = 0;
  double speed = 0;
  double flow = 0;
};

/// An area's samples as fundamental-diagram points: classic (density, speed) or Voronoi, leaving
/// out samples with nobody there (classic: count 0; Voronoi: Voronoi density 0).
std::vector<FundamentalPoint> fundamentalDiagram(const AreaSeries& area, bool voronoi);
/// The mean of those points whose time lies in [t0, t1] (each figure averaged on its own, time
/// the window's middle); none when no point does.
std::optional<FundamentalPoint> meanFundamental(const AreaSeries& area, bool voronoi, double t0, double t1);

/// Measures a plan, observation by observation.
class Measurements {
 public:
  /// Throws InputError with checkMeasurementPlan's sentence when the plan cannot be measured.
  explicit Measurements(MeasurementPlan plan);
  ~Measurements();
  Measurements(Measurements&&) noexcept;
  Measurements& operator=(Measurements&&) noexcept;

  /// One sampling instant: every agent's id, position and velocity (the same length). `time`
  /// must be finite and later than the previous observation's. A line counts an agent's crossing
  /// only between two consecutive observations that both hold it (same index and generation), so
  /// agents that appear or disappear in between are never counted. Throws InputError for spans of
  /// different lengths, a repeated or invalid id, a non-finite position or velocity, or a time
  /// out of order, and then records nothing.
  void observe(double time, std::span<const AgentId> ids, std::span<const Vec2> positions,
               std::span<const Vec2> velocities);

  const MeasurementPlan& plan() const;
  const std::vector<AreaSeries>& areas() const { return areas_; }
  const std::vector<LineSeries>& lines() const { return lines_; }

  /// The results as a JSON document; every key that holds a quantity names its unit:
  ///
  ///   interval_s, voronoi_cut_off_m, voronoi_resolution_m      the plan
  ///   areas: [{ name, area_m2,                                 per instant:
  ///             time_s, count, density_per_m2,
  ///             speed_m_per_s (null where nobody is inside),
  ///             voronoi_density_per_m2, voronoi_speed_m_per_s }]
  ///   lines: [{ name, length_m,
  ///             crossings: [{ time_s, agent (its index), dir (+1 or -1) }],
  ///             nt: { time_s, forward, backward },             cumulative, per instant
  ///             flow_per_s: { forward, backward, net },        first instant to last;
  ///             specific_flow_per_m_s: { ... } }]              null before two instants
  std::string toJson(int indent = 2) const;

 private:
  struct State;  // The plan, each area's raster, the agents last observed.
  void observeArea(std::size_t a, double time, std::span<const AgentId> ids, std::span<const Vec2> positions,
                   std::span<const Vec2> velocities);
  void observeLines(double time, std::span<const AgentId> ids, std::span<const Vec2> positions);

  std::unique_ptr<State> state_;
  std::vector<AreaSeries> areas_;
  std::vector<LineSeries> lines_;
};

}  // namespace crowd
