// Two agents swap places through the installed library; exits 0 when both arrive apart.
#include <cstdio>

#include <crowd/crowd.hpp>

int main() {
  crowd::Simulator sim;
  crowd::AgentDef a;
  a.position = crowd::Vec2(-10.0f, 0.1f);
  a.goal = crowd::Vec2(10.0f, 0.1f);
  crowd::AgentDef b;
  b.position = crowd::Vec2(10.0f, -0.1f);
  b.goal = crowd::Vec2(-10.0f, -0.1f);
  const crowd::AgentId ia = sim.addAgent(a);
  const crowd::AgentId ib = sim.addAgent(b);
  for (int s = 0; s < 500 && !(sim.hasArrived(ia) && sim.hasArrived(ib)); ++s) sim.step();
  std::printf("arrived after %lld steps\n", static_cast<long long>(sim.stepCount()));
  return sim.hasArrived(ia) && sim.hasArrived(ib) ? 0 : 1;
}
