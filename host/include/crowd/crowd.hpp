// The crowd library: #include <crowd/crowd.hpp> for everything.
#pragma once

#include <crowd/agent_id.hpp>
#include <crowd/agent_params.hpp>
#include <crowd/grid_astar.hpp>
#include <crowd/grid_map.hpp>
#include <crowd/metrics.hpp>
#include <crowd/navigation.hpp>
#include <crowd/obstacles.hpp>
#include <crowd/output_file.hpp>
#include <crowd/phase_times.hpp>
#include <crowd/realism.hpp>
#include <crowd/recorded_scene.hpp>
#include <crowd/route_planner.hpp>
#include <crowd/scenario.hpp>
#include <crowd/scenario3.hpp>
#include <crowd/simulator.hpp>
#include <crowd/simulator3.hpp>
#include <crowd/simulator_config.hpp>
#include <crowd/trajectory.hpp>
