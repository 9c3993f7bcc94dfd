#pragma once

#include <functional>
#include <sstream>
#include <string>
#include <string_view>

namespace kscope {

enum class LogLevel { Debug = 0, Info = 1, Warning = 2, Error = 3, Off = 4 };
enum class LogCategory { Model, Analysis, Ui, Cli };

const char* toString(LogCategory category);
const char* toString(LogLevel level);
bool parseLogLevel(std::string_view text, LogLevel& level);

// Engine logging without Qt: a level per category and one sink (stderr unless the GUI installs
// its own). Levels come from --log-level, KSCOPE_LOG ("warning" or "model=debug,ui=info") or a
// config file with the same syntax (~/.config/kinetoscope/logging.conf).
class Log {
public:
    using Sink = std::function<void(LogCategory, LogLevel, const std::string&)>;

    static bool enabled(LogCategory category, LogLevel level);
    static void write(LogCategory category, LogLevel level, const std::string& message);
    static void setLevel(LogLevel level);
    static void setLevel(LogCategory category, LogLevel level);
    // "warning" or "model=debug,cli=info"; false on a syntax error.
    static bool configure(std::string_view spec);
    // Applies the config file, then KSCOPE_LOG. Call once at start-up.
    static void configureFromEnvironment();
    static void setSink(Sink sink);
};

} // namespace kscope

#define KSCOPE_LOG(category, level, expr)                                                                     \
    do {                                                                                                       \
        if (::kscope::Log::enabled(::kscope::LogCategory::category, ::kscope::LogLevel::level)) {              \
            std::ostringstream kscopeLogStream_;                                                               \
            kscopeLogStream_ << expr;                                                                          \
            ::kscope::Log::write(::kscope::LogCategory::category, ::kscope::LogLevel::level, kscopeLogStream_.str()); \
        }                                                                                                      \
    } while (false)
