// The crowd library: #include <crowd/crowd.hpp> for everything a program that simulates, reads
// scenarios, routes and measures uses. The per-agent maths stays out of it: the kernels' headers
// it pulls in are plain types (vectors, ids, behaviour tags, profile terms). crowd/output_file.hpp
// (files put in place whole) is for programs that write outputs of their own.
#pragma once

#include <crowd/agent_id.hpp>
#include <crowd/agent_params.hpp>
#include <crowd/grid_astar.hpp>
#include <crowd/grid_map.hpp>
#include <crowd/metrics.hpp>
#include <crowd/navigation.hpp>
#include <crowd/obstacles.hpp>
#include <crowd/phase_times.hpp>
#include <crowd/realism.hpp>
#include <crowd/recorded_scene.hpp>
#include <crowd/route_planner.hpp>
#include <crowd/scenario.hpp>
#include <crowd/scenario3.hpp>
#include <crowd/simulator.hpp>
#include <crowd/simulator3.hpp>
#include <crowd/simulator_config.hpp>
#include <crowd/stop_request.hpp>
#include <crowd/trajectory.hpp>
#include <crowd/version.hpp>
