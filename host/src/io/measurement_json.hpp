// Measurements as JSON (crowd/measurement.hpp), for the library's own programs and tests; users
// of the installed library get the same document as text from Measurements::toJson.
#pragma once

#include <nlohmann/json.hpp>

#include <crowd/measurement.hpp>

namespace crowd {

/// The document Measurements::toJson writes (its keys and units listed there).
nlohmann::json measurementsJson(const Measurements& measurements);

}  // namespace crowd
