// The overlay (overlay.hpp): Dear ImGui when built with it, else the window title.
#include <epoxy/gl.h>

#include <crowd/viewer/overlay.hpp>
#define GLFW_INCLUDE_NONE
#include <cstdio>

#include <GLFW/glfw3.h>

#ifdef CROWD_WITH_IMGUI
#include <imgui.h>

#include <backends/imgui_impl_glfw.h>
#include <backends/imgui_impl_opengl3.h>
#endif

namespace crowd::viewer {

const char* const kViewerKeys =
    "space      pause / run\n"
    "N or .     one step (while paused)\n"
    "+ / -      faster / slower (simulated seconds per second)\n"
    "R          reset to the start\n"
    "F          fit the scene in the window\n"
    "C          colour by speed, group, behaviour or density\n"
    "P          screenshot (crowd-screenshot-N.png)\n"
    "T          trails (up to 50,000 agents)\n"
    "L          legend, scale bar, simulated time and marks on / off\n"
    "drag       pan;  wheel: zoom at the cursor;  click: select an agent (its route,\n"
    "           neighbours, ORCA half-planes in orange, velocity)\n"
    "Esc or Q   quit";

namespace {

std::string phaseLine(const PhaseTimes& t) {
  std::string line;
  char buffer[64];
  for (int p = 0; p < kPhaseCount; ++p) {
    std::snprintf(buffer, sizeof(buffer), "%s%s %.2f", p > 0 ? "  " : "", kPhaseNames[p], t.ms[p]);
    line += buffer;
  }
  return line;
}

}  // namespace

bool Overlay::available() {
#ifdef CROWD_WITH_IMGUI
  return true;
#else
  return false;
#endif
}

Overlay::Overlay(GLFWwindow* window) : window_(window) {
#ifdef CROWD_WITH_IMGUI
  IMGUI_CHECKVERSION();
  ImGui::CreateContext();
  ImGui::GetIO().IniFilename = nullptr;  // No imgui.ini left in the working folder.
  ImGui::StyleColorsDark();
  ImGui_ImplGlfw_InitForOpenGL(window_, true);
  ImGui_ImplOpenGL3_Init("#version 330 core");
#endif
}

Overlay::~Overlay() {
#ifdef CROWD_WITH_IMGUI
  ImGui_ImplOpenGL3_Shutdown();
  ImGui_ImplGlfw_Shutdown();
  ImGui::DestroyContext();
#endif
}

bool Overlay::wantsMouse() const {
#ifdef CROWD_WITH_IMGUI
  return ImGui::GetIO().WantCaptureMouse;
#else
  return false;
#endif
}

bool Overlay::wantsKeyboard() const {
#ifdef CROWD_WITH_IMGUI
  return ImGui::GetIO().WantCaptureKeyboard;
#else
  return false;
#endif
}

long Overlay::draw(const OverlayInfo& info) {
  long seek = -1;
  char title[256];
  std::snprintf(title, sizeof(title), "crowd: %zu agents, %s, step %lld (%.1f s), %.0f fps%s", info.agents,
                info.backend.c_str(), static_cast<long long>(info.step), info.time, info.framesPerSecond,
                info.paused ? ", paused" : "");
#ifdef CROWD_WITH_IMGUI
  ImGui_ImplOpenGL3_NewFrame();
  ImGui_ImplGlfw_NewFrame();
  ImGui::NewFrame();
  ImGui::SetNextWindowPos(ImVec2(8, 8), ImGuiCond_FirstUseEver);
  ImGui::SetNextWindowBgAlpha(0.75f);
  ImGui::Begin("crowd", nullptr, ImGuiWindowFlags_AlwaysAutoResize);
  ImGui::Text("%zu agents   backend %s   agents drawn by %s", info.agents, info.backend.c_str(),
              info.drawPath.c_str());
  ImGui::Text("step %lld   %.1f s simulated   x%.3g speed%s", static_cast<long long>(info.step), info.time,
              info.speed, info.paused ? "   PAUSED" : "");
  if (info.collisions >= 0) {
    ImGui::Text("%.0f frames/s   %.0f steps/s   collisions so far %lld", info.framesPerSecond,
                info.stepsPerSecond, static_cast<long long>(info.collisions));
  } else {
    ImGui::Text("%.0f frames/s   %.0f steps/s   collisions not counted (no host copy)", info.framesPerSecond,
                info.stepsPerSecond);
  }
  ImGui::Text("ms per step: %s  (total %.2f)", phaseLine(info.stepTimes).c_str(), info.stepTimes.total());
  ImGui::Text("colour by %s", info.colorBy.c_str());
  if (!info.selected.empty()) ImGui::Text("%s", info.selected.c_str());
  if (info.replayFrames > 0) {
    int frame = static_cast<int>(info.replayFrame);
    if (ImGui::SliderInt("frame", &frame, 0, static_cast<int>(info.replayFrames) - 1)) seek = frame;
  }
  if (ImGui::CollapsingHeader("keys")) ImGui::TextUnformatted(kViewerKeys);
  ImGui::End();
  ImGui::Render();
  ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
#endif
  glfwSetWindowTitle(window_, title);
  return seek;
}

}  // namespace crowd::viewer
