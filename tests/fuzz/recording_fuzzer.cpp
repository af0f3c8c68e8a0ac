// libFuzzer target for recorded pedestrian scenes (recorded_scene.hpp, realism.hpp): any bytes
// either read as a recording or are refused with a RecordedSceneError, and a small recording
// that reads is re-enacted and measured, or refused with std::invalid_argument (a pedestrian
// beyond the speed limit, say); nothing crashes, hangs or reads out of bounds.
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string_view>

#include <crowd/realism.hpp>
#include <crowd/recorded_scene.hpp>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  try {
    const crowd::RecordedScene scene = crowd::parseRecordedScene(text, "fuzz.txt");
    if (scene.instants > 400 || scene.tracks.size() > 50) return 0;  // Valid, but slow to re-enact each time.
    crowd::RealismOptions options;
    options.substeps = 1;
    options.threads = 1;
    const crowd::SceneTrajectories recorded = crowd::recordedTrajectories(scene);
    const crowd::SceneTrajectories simulated = crowd::simulateRecordedScene(scene, options);
    crowd::measureScene(scene, simulated, options.frameTime, 0.5, &recorded);
  } catch (const crowd::RecordedSceneError&) {
    // A refused file.
  } catch (const std::invalid_argument&) {
    // A recording the simulator cannot take, said so.
  }
  return 0;
}
