// Stable agent handles (defined with the kernels, which carry them in the agent columns).
#pragma once

#include <crowd/kernels/agent_id.hpp>
