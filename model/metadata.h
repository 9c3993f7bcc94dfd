#pragma once

// What a trace says about itself: its top-level metadata and which rank it is.

#include <filesystem>
#include <map>
#include <string>

namespace kscope {

class RankBuilder;

// Fills the rank's TraceMetadata from the top-level members beside traceEvents (name -> raw JSON)
// and sets rankFromContent to distributedInfo.rank when there is one. Internal to the loader.
void applyMetadata(RankBuilder& builder, const std::map<std::string, std::string>& json, int& rankFromContent);

// The rank a trace declares in distributedInfo near its start (Kineto writes the metadata before
// traceEvents), read from its first 256 KiB only; -1 when not found there.
int peekDeclaredRank(const std::filesystem::path& file);

// HTA's rank of a file (trace_file.create_rank_to_trace_dict): the first match of the regex
// "rank":\s+(\d+) in the (inflated) text, line by line, so compact JSON ("rank":3) does not
// match; -1 when nothing matches (HTA then says 0). Reads until the first match: the whole file
// when there is none.
int htaRankFromContent(const std::filesystem::path& file);

// The rank a file name suggests ("rank-3", "rank3", "worker3", "_3."), or -1.
int rankFromFileName(const std::string& fileName);

} // namespace kscope
