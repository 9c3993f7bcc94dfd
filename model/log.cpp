#include "log.h"

#include <array>
#include <atomic>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <mutex>

namespace kscope {

namespace {

std::array<std::atomic<int>, 4> g_levels{static_cast<int>(LogLevel::Warning), static_cast<int>(LogLevel::Warning),
                                          static_cast<int>(LogLevel::Warning), static_cast<int>(LogLevel::Warning)};
std::mutex g_sinkMutex;
Log::Sink g_sink;

bool parseCategory(std::string_view text, LogCategory& category)
{
    if (text == "model") category = LogCategory::Model;
    else if (text == "analysis") category = LogCategory::Analysis;
    else if (text == "ui") category = LogCategory::Ui;
    else if (text == "cli") category = LogCategory::Cli;
    else return false;
    return true;
}

std::string_view trim(std::string_view s)
{
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t'))
        s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r' || s.back() == '\n'))
        s.remove_suffix(1);
    return s;
}

} // namespace

const char* toString(LogCategory category)
{
    switch (category) {
    case LogCategory::Model: return "model";
    case LogCategory::Analysis: return "analysis";
    case LogCategory::Ui: return "ui";
    case LogCategory::Cli: return "cli";
    }
    return "?";
}

const char* toString(LogLevel level)
{
    switch (level) {
    case LogLevel::Debug: return "debug";
    case LogLevel::Info: return "info";
    case LogLevel::Warning: return "warning";
    case LogLevel::Error: return "error";
    case LogLevel::Off: return "off";
    }
    return "?";
}

bool parseLogLevel(std::string_view text, LogLevel& level)
{
    if (text == "debug") level = LogLevel::Debug;
    else if (text == "info") level = LogLevel::Info;
    else if (text == "warning" || text == "warn") level = LogLevel::Warning;
    else if (text == "error") level = LogLevel::Error;
    else if (text == "off" || text == "none") level = LogLevel::Off;
    else return false;
    return true;
}

bool Log::enabled(LogCategory category, LogLevel level)
{
    return static_cast<int>(level) >= g_levels[static_cast<size_t>(category)].load(std::memory_order_relaxed);
}

void Log::write(LogCategory category, LogLevel level, const std::string& message)
{
    std::lock_guard lock(g_sinkMutex);
    if (g_sink) {
        g_sink(category, level, message);
        return;
    }
    std::cerr << "[" << toString(category) << "] " << toString(level) << ": " << message << '\n';
}

void Log::setLevel(LogLevel level)
{
    for (auto& l : g_levels)
        l.store(static_cast<int>(level));
}

void Log::setLevel(LogCategory category, LogLevel level)
{
    g_levels[static_cast<size_t>(category)].store(static_cast<int>(level));
}

bool Log::configure(std::string_view spec)
{
    bool ok = true;
    while (!spec.empty()) {
        const size_t comma = spec.find(',');
        const std::string_view item = trim(spec.substr(0, comma));
        spec = comma == std::string_view::npos ? std::string_view{} : spec.substr(comma + 1);
        if (item.empty())
            continue;
        const size_t eq = item.find('=');
        LogLevel level;
        if (eq == std::string_view::npos) {
            if (parseLogLevel(item, level))
                setLevel(level);
            else
                ok = false;
            continue;
        }
        LogCategory category;
        if (parseCategory(trim(item.substr(0, eq)), category) && parseLogLevel(trim(item.substr(eq + 1)), level))
            setLevel(category, level);
        else
            ok = false;
    }
    return ok;
}

void Log::configureFromEnvironment()
{
    if (const char* home = std::getenv("HOME")) {
        std::ifstream file(std::string(home) + "/.config/kinetoscope/logging.conf");
        std::string line;
        while (std::getline(file, line))
            if (!line.empty() && line[0] != '#')
                configure(line);
    }
    if (const char* env = std::getenv("KSCOPE_LOG"))
        configure(env);
}

void Log::setSink(Sink sink)
{
    std::lock_guard lock(g_sinkMutex);
    g_sink = std::move(sink);
}

} // namespace kscope
