#pragma once

// Internal to the critical-path analysis: one rank's graph as HTA's CPGraph builds it (nodes,
// edges in insertion order with networkx's update-on-re-add, the order nodes first appear).

#include "analysis/criticalpath/criticalpath.h"

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

namespace kscope::cpdetail {

struct RankGraph {
    std::vector<CpNode> nodes;       // HTA's node_list
    std::vector<CpEdge> edges;       // unique (src, dst), in first-insertion order
    std::vector<uint32_t> nodeOrder; // networkx's node order: first appearance in an edge
    std::unordered_map<EventIndex, uint32_t> startOf;
    std::unordered_map<EventIndex, uint32_t> endOf;
    std::unordered_map<uint64_t, uint32_t> edgeAt;  // (src << 32 | dst) -> edge
    std::vector<uint8_t> linked;     // per node: already in nodeOrder

    // networkx add_edge: a new edge is appended, an existing one takes the new type and weight.
    uint32_t addEdge(uint32_t src, uint32_t dst, CpEdgeType type, int64_t weightNs);
};

struct Window {
    int64_t startNs = 0;
    int64_t endNs = 0;
    std::string name;  // the first instance's event name ("ProfilerStep#102"); "" for the whole trace
};

// The analysed window of a rank (HTA: the annotation's instances), or an error.
std::string findWindow(const Run& run, const RankTrace& rank, const CriticalPathOptions& options,
                       const std::string& annotation, Window& window);

// Builds the graph of the events in the window. Returns an error text (empty on success).
// inferStreamWaits (beyond HTA, for the cross-rank path): a cudaStreamWaitEvent call without its
// GPU-side "Stream Wait Event" record makes the next kernel launched from its thread wait for the
// op last launched from that thread on another stream.
std::string buildRankGraph(const Run& run, const RankTrace& rank, const CriticalPathOptions& options,
                           const Window& window, RankGraph& graph, std::vector<std::string>& notes,
                           bool inferStreamWaits = false);

// HTA's _validate_graph (negative weights cleared or refused, no sync within a stream).
std::string validate(const RankTrace& rank, const CriticalPathOptions& options, RankGraph& g,
                     std::vector<std::string>& notes);

// What bounds a segment (HTA's bound_by).
CpBound boundOf(const Run& run, const RankTrace& rank, const CriticalPathOptions& options, CpEdgeType type,
                EventIndex event);

} // namespace kscope::cpdetail
