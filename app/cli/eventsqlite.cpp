// events --format sqlite (placeholder until the SQLite writer lands).

#include "command.h"
#include "eventsink.h"

#include <iostream>

namespace kscope::cli {

int writeSqlite(const Run&, EventMatcher&, const std::string&, const LoadedRun&)
{
    std::cerr << "error: --format sqlite is not available in this build\n";
    return kExitUsage;
}

} // namespace kscope::cli
