#include "command.h"

#include "model/log.h"

#include <algorithm>
#include <cstring>
#include <fstream>
#include <iostream>
#include <unistd.h>

namespace kscope::cli {

namespace {

std::map<std::string, Command>& registry()
{
    static std::map<std::string, Command> commands;
    return commands;
}

const char* kCommonHelp =
    "Common options:\n"
    "  --format table|csv|json   output format (table on a terminal, csv otherwise)\n"
    "  --output FILE, -o FILE    write the result to FILE instead of stdout\n"
    "  --hta-compat              reproduce HTA's numbers exactly (us rounding, its quirks)\n"
    "  --include-last-step       keep the last ProfilerStep (HTA trims it by default)\n"
    "  --allow-partial           exit 0 even when some ranks failed to load\n"
    "  --ranks 0,2-5             load only these ranks\n"
    "  --log-level LEVEL         debug|info|warning|error|off, or model=debug,cli=info\n"
    "Exit codes: 0 ok, 1 usage, 2 no usable rank, 3 some ranks failed (0 with --allow-partial).\n";

void printUsage(std::ostream& out)
{
    out << "Usage: kinetoscope-cli COMMAND [options] RUN_DIR\n\n"
           "Analyses PyTorch profiler (Kineto) traces of a distributed run, one file per rank.\n\nCommands:\n";
    size_t width = 0;
    for (const auto& [name, command] : registry())
        width = std::max(width, name.size());
    for (const auto& [name, command] : registry())
        out << "  " << name << std::string(width - name.size() + 2, ' ') << command.summary << '\n';
    out << "\nRun 'kinetoscope-cli COMMAND --help' for a command's options.\n\n" << kCommonHelp;
}

} // namespace

CommandRegistrar::CommandRegistrar(Command command)
{
    std::string name = command.name;
    registry().emplace(std::move(name), std::move(command));
}

const std::map<std::string, Command>& commands()
{
    return registry();
}

std::optional<std::string> Arguments::value(const std::string& name) const
{
    asked[name] = true;
    auto it = flags.find(name);
    if (it == flags.end())
        return std::nullopt;
    return it->second;
}

bool Arguments::flag(const std::string& name) const
{
    auto v = value(name);
    return v && *v != "false" && *v != "0";
}

double Arguments::number(const std::string& name, double fallback) const
{
    auto v = value(name);
    if (!v)
        return fallback;
    try {
        size_t used = 0;
        const double d = std::stod(*v, &used);
        if (used == v->size())
            return d;
    } catch (...) {
    }
    throw std::invalid_argument("--" + name + " expects a number, got '" + *v + "'");
}

std::vector<std::string> Arguments::unusedFlags() const
{
    std::vector<std::string> unused;
    for (const auto& [name, v] : flags)
        if (!asked.count(name))
            unused.push_back(name);
    return unused;
}

bool parseRankList(const std::string& text, std::vector<int>& ranks)
{
    ranks.clear();
    size_t pos = 0;
    while (pos <= text.size()) {
        const size_t comma = text.find(',', pos);
        const std::string item = text.substr(pos, comma == std::string::npos ? std::string::npos : comma - pos);
        pos = comma == std::string::npos ? text.size() + 1 : comma + 1;
        if (item.empty())
            return false;
        const size_t dash = item.find('-', 1);
        try {
            size_t used = 0;
            const int first = std::stoi(item.substr(0, dash), &used);
            if (used != (dash == std::string::npos ? item.size() : dash) || first < 0)
                return false;
            int last = first;
            if (dash != std::string::npos) {
                last = std::stoi(item.substr(dash + 1), &used);
                if (used != item.size() - dash - 1 || last < first)
                    return false;
            }
            for (int r = first; r <= last; ++r)
                ranks.push_back(r);
        } catch (...) {
            return false;
        }
    }
    std::sort(ranks.begin(), ranks.end());
    ranks.erase(std::unique(ranks.begin(), ranks.end()), ranks.end());
    return !ranks.empty();
}

std::shared_ptr<Run> loadRunForCommand(const Arguments& args, int& exitCode)
{
    if (args.positional.empty()) {
        std::cerr << "error: RUN_DIR is missing\n";
        exitCode = kExitUsage;
        return nullptr;
    }
    LoadOptions options;
    options.htaCompat = args.common.htaCompat;
    options.includeLastStep = args.common.includeLastStep;
    options.onlyRanks = args.common.ranks;
    auto run = loadRun(args.positional[0], options);
    for (const LoadError& e : run->errors) {
        std::cerr << "error: " << e.file.string();
        if (e.rank >= 0)
            std::cerr << " (rank " << e.rank << ")";
        std::cerr << ": " << toString(e.kind) << " at byte " << e.byteOffset << ": " << e.message << '\n';
    }
    for (const LoadWarning& w : run->warnings)
        KSCOPE_LOG(Cli, Warning, w.file.string() << ": " << w.message);
    if (run->ranks.empty()) {
        std::cerr << "error: no usable rank in " << args.positional[0] << '\n';
        exitCode = kExitNoRank;
        return nullptr;
    }
    exitCode = kExitOk;
    return run;
}

int finalExitCode(const Run& run, const Arguments& args)
{
    if (run.errors.empty() || args.common.allowPartial)
        return kExitOk;
    return kExitSomeRanksFailed;
}

bool emitTable(const Table& table, const Arguments& args)
{
    std::ofstream file;
    std::ostream* out = &std::cout;
    if (!args.common.outputFile.empty()) {
        file.open(args.common.outputFile);
        if (!file) {
            std::cerr << "error: cannot write " << args.common.outputFile << '\n';
            return false;
        }
        out = &file;
    }
    OutputFormat format = args.common.format;
    if (format == OutputFormat::Auto)
        format = (out == &std::cout && isatty(STDOUT_FILENO)) ? OutputFormat::Table : OutputFormat::Csv;
    switch (format) {
    case OutputFormat::Json:
        writeJson(table, *out);
        return true;
    case OutputFormat::Table:
        writeAligned(table, *out);
        break;
    default:
        writeCsv(table, *out);
        break;
    }
    for (const std::string& note : table.notes)
        std::cerr << "note: " << note << '\n';
    return static_cast<bool>(*out);
}

int emitRunTable(const Table& table, const Run& run, const Arguments& args)
{
    return emitTable(table, args) ? finalExitCode(run, args) : kExitUsage;
}

int runCli(int argc, char** argv)
{
    Log::configureFromEnvironment();
    if (argc < 2 || !std::strcmp(argv[1], "--help") || !std::strcmp(argv[1], "-h") || !std::strcmp(argv[1], "help")) {
        printUsage(argc < 2 ? std::cerr : std::cout);
        return argc < 2 ? kExitUsage : kExitOk;
    }
    if (!std::strcmp(argv[1], "--version")) {
        std::cout << "kinetoscope-cli 0.1.0\n";
        return kExitOk;
    }
    auto it = registry().find(argv[1]);
    if (it == registry().end()) {
        std::cerr << "error: unknown command '" << argv[1] << "'\n\n";
        printUsage(std::cerr);
        return kExitUsage;
    }
    const Command& command = it->second;
    auto owns = [&](const std::string& name) {
        return std::find(command.ownCommonFlags.begin(), command.ownCommonFlags.end(), name) != command.ownCommonFlags.end();
    };
    auto isBoolean = [&](const std::string& name) {
        static const char* common[] = {"hta-compat", "include-last-step", "allow-partial", "help"};
        for (const char* c : common)
            if (name == c && !owns(name))
                return true;
        return std::find(command.booleanFlags.begin(), command.booleanFlags.end(), name) != command.booleanFlags.end();
    };

    Arguments args;
    for (int i = 2; i < argc; ++i) {
        std::string arg = argv[i];
        if (arg == "-o")
            arg = "--output";
        if (arg.rfind("--", 0) != 0 || arg == "--") {
            args.positional.push_back(arg);
            continue;
        }
        std::string name = arg.substr(2);
        std::string value = "true";
        if (const size_t eq = name.find('='); eq != std::string::npos) {
            value = name.substr(eq + 1);
            name = name.substr(0, eq);
        } else if (!isBoolean(name)) {
            if (i + 1 >= argc) {
                std::cerr << "error: --" << name << " needs a value\n";
                return kExitUsage;
            }
            value = argv[++i];
        }
        if (owns(name)) {
            args.flags[name] = value;
            continue;
        }
        if (name == "help") {
            std::cout << "Usage: kinetoscope-cli " << command.name << ' ' << command.usage << "\n\n"
                      << command.summary << "\n\n" << kCommonHelp;
            return kExitOk;
        } else if (name == "format") {
            if (value == "table") args.common.format = OutputFormat::Table;
            else if (value == "csv") args.common.format = OutputFormat::Csv;
            else if (value == "json") args.common.format = OutputFormat::Json;
            else {
                std::cerr << "error: --format must be table, csv or json\n";
                return kExitUsage;
            }
        } else if (name == "output") {
            args.common.outputFile = value;
        } else if (name == "hta-compat") {
            args.common.htaCompat = value != "false";
        } else if (name == "include-last-step") {
            args.common.includeLastStep = value != "false";
        } else if (name == "allow-partial") {
            args.common.allowPartial = value != "false";
        } else if (name == "ranks") {
            if (!parseRankList(value, args.common.ranks)) {
                std::cerr << "error: --ranks expects a list like 0,2-5\n";
                return kExitUsage;
            }
        } else if (name == "log-level") {
            args.common.logLevel = value;
            if (!Log::configure(value)) {
                std::cerr << "error: bad --log-level '" << value << "'\n";
                return kExitUsage;
            }
        } else {
            args.flags[name] = value;
        }
    }
    try {
        const int rc = command.run(args);
        for (const std::string& unused : args.unusedFlags())
            std::cerr << "warning: option --" << unused << " is not used by '" << command.name << "'\n";
        return rc;
    } catch (const std::invalid_argument& e) {
        std::cerr << "error: " << e.what() << '\n';
        return kExitUsage;
    }
}

} // namespace kscope::cli
