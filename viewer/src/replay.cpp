// Reading trajectory files back (replay.hpp).
#include <algorithm>
#include <charconv>
#include <cmath>
#include <fstream>
#include <stdexcept>

#include <crowd/viewer/replay.hpp>

namespace crowd::viewer {
namespace {

// The comma-separated fields of `line`, parsed as numbers; false if any is not one.
template <typename T>
bool field(std::string_view& rest, T& value) {
  const std::size_t comma = rest.find(',');
  const std::string_view text = rest.substr(0, comma);
  const char* end = text.data() + text.size();
  const auto [ptr, ec] = std::from_chars(text.data(), end, value);
  if (ec != std::errc() || ptr != end) return false;
  rest = comma == std::string_view::npos ? std::string_view() : rest.substr(comma + 1);
  return true;
}

}  // namespace

Replay Replay::load(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw ReplayError(path + ": cannot read");
  std::string line;
  const bool read = static_cast<bool>(std::getline(in, line));
  if (read && line.rfind("step,agent,x,y,z,vx,vy,vz", 0) == 0) {
    throw ReplayError(path +
                      ": a 3D trajectory; replays are of planar runs for now (watch a 3D world live with "
                      "'crowdsim view', or draw it with 'crowdsim render')");
  }
  if (!read || line.rfind("step,agent,x,y,vx,vy", 0) != 0) {
    throw ReplayError(path + ":1: not a trajectory file (the header 'step,agent,x,y,vx,vy' is missing)");
  }
  if (!line.empty() && line.back() == '\r') line.pop_back();
  const bool timed = line == "step,agent,x,y,vx,vy,time";  // The time column a known time step adds.
  double time = 0.0;
  Replay replay;
  std::size_t number = 1;
  while (std::getline(in, line)) {
    ++number;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.empty()) continue;
    std::string_view rest = line;
    std::int64_t step = 0;
    Row row{};
    if (!field(rest, step) || !field(rest, row.agent) || !field(rest, row.x) || !field(rest, row.y) ||
        !field(rest, row.vx) || !field(rest, row.vy) || (timed && !field(rest, time)) || !rest.empty() ||
        !std::isfinite(row.x) || !std::isfinite(row.y)) {
      throw ReplayError(path + ":" + std::to_string(number) + ": expected step,agent,x,y,vx,vy numbers");
    }
    if (replay.steps_.empty() || step != replay.steps_.back()) {
      if (!replay.steps_.empty() && step < replay.steps_.back()) {
        throw ReplayError(path + ":" + std::to_string(number) + ": step " + std::to_string(step) +
                          " comes after step " + std::to_string(replay.steps_.back()));
      }
      replay.steps_.push_back(step);
      replay.frameStart_.push_back(replay.rows_.size());
    }
    replay.fastest_ = std::max(replay.fastest_, std::hypot(row.vx, row.vy));
    replay.agentCount_ = std::max(replay.agentCount_, static_cast<std::size_t>(row.agent) + 1);
    replay.rows_.push_back(row);
  }
  if (replay.steps_.empty()) throw ReplayError(path + ": no rows after the header");
  return replay;
}

std::size_t Replay::frameAt(std::int64_t step) const {
  const auto it = std::upper_bound(steps_.begin(), steps_.end(), step);
  return it == steps_.begin() ? 0 : static_cast<std::size_t>(it - steps_.begin()) - 1;
}

void Replay::fill(std::size_t frame, glm::dvec2 origin, std::span<const AgentLook> looks, ColorBy colorBy,
                  double timeStep, Frame& out) const {
  const std::size_t begin = frameStart_[frame];
  const std::size_t end = frame + 1 < frameStart_.size() ? frameStart_[frame + 1] : rows_.size();
  out.step = steps_[frame];
  out.time = static_cast<double>(out.step) * timeStep;
  out.agents.clear();
  out.ids.clear();
  const AgentLook fallback{};
  for (std::size_t r = begin; r < end; ++r) {
    const Row& row = rows_[r];
    const AgentLook& look = row.agent < looks.size() ? looks[row.agent] : fallback;
    const float speed = std::hypot(row.vx, row.vy);
    const float limit = look.maxSpeed > 0.0f ? look.maxSpeed : fastest_;
    AgentInstance a{};
    a.x = static_cast<float>(row.x - origin.x);
    a.y = static_cast<float>(row.y - origin.y);
    a.hx = speed > 1e-6f ? row.vx / speed : 0.0f;
    a.hy = speed > 1e-6f ? row.vy / speed : 0.0f;
    a.radius = look.radius;
    a.value = colorBy == ColorBy::Group ? static_cast<float>(look.profile % 16u) / 16.0f
                                        : (limit > 0.0f ? std::min(speed / limit, 1.0f) : 0.0f);
    out.agents.push_back(a);
    out.ids.push_back(AgentId{row.agent, 0});
  }
}

}  // namespace crowd::viewer
