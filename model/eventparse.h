#pragma once

// Internal to the loader: turns a batch of complete traceEvents elements into rows.

#include "bytebuffer.h"
#include "jsonscan.h"
#include "loader.h"

#include <simdjson.h>

#include <memory>
#include <string>
#include <vector>

namespace kscope {

class RankBuilder;

using ElementSpan = jsonscan::Span;  // offsets into the splitter's window

class EventBatchParser {
public:
    EventBatchParser(RankBuilder& builder, const LoadOptions& options);
    ~EventBatchParser();

    // Parses the elements (all inside window); base is window[0]'s offset in the file. The window
    // is parsed in place: the bytes just before the first and after the last element are
    // temporarily replaced by '[' and ']', so window must have a byte before elements.front()
    // and simdjson's padding after its end (windowSize).
    void parse(char* window, size_t windowSize, uint64_t base, const std::vector<ElementSpan>& elements);

    // From now on a large batch is parsed on two threads: a helper turns the later part of the
    // batch into fields while this thread parses and commits the earlier part, then commits the
    // helper's events in file order. For one file on a machine with a spare core.
    void useHelperThread();

private:
    struct RawEvent;
    struct Helper;
    // Parses and commits elements[from, to), on two threads with a helper.
    void parseBatch(char* window, size_t windowSize, uint64_t base, const std::vector<ElementSpan>& elements,
                    size_t from, size_t to);
    // Parses and commits elements[from, to) in place in window; returns the first not committed.
    size_t parseInPlace(char* window, size_t windowSize, uint64_t base, const std::vector<ElementSpan>& elements,
                        size_t from, size_t to);
    bool parseOne(simdjson::ondemand::value element, RawEvent& event);
    bool parseArgs(simdjson::ondemand::object args, RawEvent& event);
    void commit(RawEvent& event, uint64_t offset, std::string_view text);
    void parseIsolated(const char* window, uint64_t base, const ElementSpan& element);

    RankBuilder& m_builder;
    const LoadOptions& m_options;
    simdjson::ondemand::parser& m_parser;  // one per thread, reused across files
    ByteBuffer m_batch;
    std::unique_ptr<RawEvent> m_event;
    std::unique_ptr<Helper> m_helper;
    // The last category interned and its id: runs of events share one.
    std::string m_lastCategory;
    StringId m_lastCategoryId;
};

} // namespace kscope
