// Stable agent handles: an index and a generation (crowd/kernels/agent_id.hpp, where the agent
// columns carry it); a removed agent's handle never names a newer one.
#pragma once

#include <crowd/kernels/agent_id.hpp>
