// Measurement areas and lines in scenario files: the top-level "measure" key, read into a
// MeasurementPlan (crowd/measurement.hpp). The reader checks the shape (types, known keys, one of
// "polygon" or "min"/"max" per area) and the rectangle shorthand's corners, which the plan keeps
// only as a polygon; measurementPlanProblem checks the values (coordinate limits and
// checkMeasurementPlan's rules) for the validator, so that a spec built in code is checked too.
#pragma once

#include <nlohmann/json.hpp>

#include <crowd/measurement.hpp>

#include "scenario/behavior_json.hpp"
#include "scenario/json_value_reader.hpp"

namespace crowd::scenario_detail {

/// "measure": {"interval": s, "voronoiCutOff": m, "voronoiResolution": m,
///             "areas": [{"name": text, "polygon": [[x, y], ...]} or {"name", "min", "max"}],
///             "lines": [{"name": text, "from": [x, y], "to": [x, y]}]}.
MeasurementPlan readMeasurementPlan(const JsonValueReader& values, const nlohmann::json& value);

/// The first problem with `plan` as a file writes it, placed below "/measure": a coordinate out
/// of its limit ("/areas/0/polygon/2/1"), a repeated name ("/lines/1/name"), an area or line
/// checkMeasurementPlan refuses ("/areas/0"), a bad setting ("/voronoiResolution"), or a plan
/// with nothing to measure ("").
PlacedProblem measurementPlanProblem(const MeasurementPlan& plan);

}  // namespace crowd::scenario_detail
