// kinetoscope-cli's entry: finds the command, parses its command line with CLI11, reports usage
// errors (unknown options with the nearest known one, bad values naming their option) and runs it.

#include "command.h"

#include "model/atomicfile.h"

#include "model/log.h"

#include <CLI/CLI.hpp>

#include <algorithm>
#include <cctype>
#include <iostream>

namespace kscope::cli {

namespace {

std::map<std::string, Command>& registry()
{
    static std::map<std::string, Command> commands;
    return commands;
}

const char* kExitCodesHelp =
    "Exit codes: 0 ok; 1 usage (nothing run, nothing on stdout); 2 no usable rank; 3 ranks failed,\n"
    "cut short or missing (0 with --allow-partial; they are marked in the output either way);\n"
    "4 the result could not be written; 5 diff-summary --fail-above: a kernel's total time grew by more\n"
    "than the limit.\n";

void printUsage(std::ostream& out)
{
    out << "Usage: kinetoscope-cli COMMAND [options] RUN\n"
           "       kinetoscope-cli diff|diff-summary [options] CONTROL_RUN TEST_RUN\n\n"
           "Analyses PyTorch profiler (Kineto) traces of a distributed run, one file per rank. RUN is a\n"
           "folder of traces, or one or more trace files that form one run.\n\nCommands:\n";
    size_t width = 0;
    for (const auto& [name, command] : registry())
        width = std::max(width, name.size());
    for (const auto& [name, command] : registry())
        out << "  " << name << std::string(width - name.size() + 2, ' ') << command.summary << '\n';
    out << "\nRun 'kinetoscope-cli COMMAND --help' for a command's options.\n\n"
           "Common options: --format table|csv|json, -o/--output FILE, --width N, --full-names,\n"
           "--hta-compat, --include-last-step, --allow-partial, --ranks 0,2-5, --step N, --log-level LEVEL.\n"
        << kExitCodesHelp;
}

// Edit distance, with '_' and '-' read as the same character.
size_t distance(std::string_view a, std::string_view b)
{
    auto same = [](char x, char y) {
        auto norm = [](char c) { return c == '_' ? '-' : static_cast<char>(std::tolower(static_cast<unsigned char>(c))); };
        return norm(x) == norm(y);
    };
    std::vector<size_t> row(b.size() + 1);
    for (size_t j = 0; j <= b.size(); ++j)
        row[j] = j;
    for (size_t i = 1; i <= a.size(); ++i) {
        size_t diagonal = row[0];
        row[0] = i;
        for (size_t j = 1; j <= b.size(); ++j) {
            const size_t up = row[j];
            row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (same(a[i - 1], b[j - 1]) ? 0 : 1)});
            diagonal = up;
        }
    }
    return row[b.size()];
}

// The known name nearest to `word`, or empty when none is near enough to be what was meant.
std::string nearest(std::string_view word, const std::vector<std::string>& known)
{
    std::string best;
    size_t bestDistance = std::max<size_t>(2, word.size() / 3) + 1;
    for (const std::string& candidate : known) {
        const size_t d = candidate.rfind(word, 0) == 0 && word.size() >= 3 ? 1 : distance(word, candidate);
        if (d < bestDistance) {
            bestDistance = d;
            best = candidate;
        }
    }
    return best;
}

std::vector<std::string> optionNames(const CLI::App& app)
{
    std::vector<std::string> names;
    for (const CLI::Option* option : app.get_options()) {
        for (const std::string& l : option->get_lnames())
            names.push_back("--" + l);
        for (const std::string& s : option->get_snames())
            names.push_back("-" + s);
    }
    return names;
}

std::string helpHint(const std::string& command)
{
    return "Run 'kinetoscope-cli " + command + " --help' for its options.\n";
}

// CLI11 2.1 does not wrap help text: option descriptions are wrapped here to fit 100 columns.
std::string wrapped(const std::string& text, size_t width)
{
    std::string out, line;
    size_t pos = 0;
    while (pos < text.size()) {
        size_t end = text.find(' ', pos);
        if (end == std::string::npos)
            end = text.size();
        const std::string word = text.substr(pos, end - pos);
        if (!line.empty() && line.size() + 1 + word.size() > width) {
            out += line + "\n";
            line.clear();
        }
        line += (line.empty() ? "" : " ") + word;
        pos = end + 1;
    }
    return out + line;
}

// Arguments nothing claimed: unknown options (with a suggestion) and extra positionals. True
// when there were any (reported on stderr).
bool reportLeftovers(const CLI::App& app, const Command& command)
{
    std::vector<std::string> leftovers = app.remaining();
    std::erase(leftovers, "--");
    if (leftovers.empty())
        return false;
    const std::vector<std::string> known = optionNames(app);
    for (const std::string& arg : leftovers) {
        if (arg.size() > 1 && arg[0] == '-') {
            const std::string name = arg.substr(0, arg.find('='));
            std::cerr << "error: unknown option '" << name << "' for '" << command.name << "'";
            if (const std::string guess = nearest(name, known); !guess.empty())
                std::cerr << "; did you mean " << guess << "?";
            std::cerr << '\n';
        } else {
            std::cerr << "error: unexpected argument '" << arg << "' for '" << command.name << "'\n";
        }
    }
    std::cerr << helpHint(command.name);
    return true;
}

int runCommand(const Command& command, int argc, char** argv)
{
    Invocation invocation;
    invocation.command = command.name;
    CLI::App app{command.summary, "kinetoscope-cli " + command.name};
    app.allow_extras(true);  // unknown arguments are reported by reportLeftovers, with a suggestion
    app.get_formatter()->column_width(32);
    if (!command.details.empty())
        app.footer("\n" + command.details + (command.common & kLoadOptions ? "\n\n" + std::string(kExitCodesHelp) : ""));
    const Action action = command.setup(app, invocation);
    addCommonOptions(app, invocation, command.common);
    for (CLI::Option* option : app.get_options())
        option->description(wrapped(option->get_description(), 100 - 32));
    try {
        app.parse(argc, argv);
    } catch (const CLI::Success&) {
        std::cout << app.help();
        return kExitOk;
    } catch (const CLI::ParseError& e) {
        // An unknown option explains a missing RUN or value better than the message about it.
        if (reportLeftovers(app, command))
            return kExitUsage;
        std::cerr << "error: " << e.what() << '\n' << helpHint(command.name);
        return kExitUsage;
    }
    if (reportLeftovers(app, command))
        return kExitUsage;
    return action();
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

int runCli(int argc, char** argv)
{
    Log::configureFromEnvironment();
    removeTemporariesOnSignal();  // an interrupted export leaves no temporary file behind
    if (argc < 2) {
        printUsage(std::cerr);
        return kExitUsage;
    }
    std::string name = argv[1];
    if (name == "--help" || name == "-h" || (name == "help" && argc == 2)) {
        printUsage(std::cout);
        return kExitOk;
    }
    if (name == "--version") {
        std::cout << "kinetoscope-cli 0.1.0\n";
        return kExitOk;
    }
    std::vector<char*> args(argv + 1, argv + argc);
    static char help[] = "--help";
    if (name == "help") {  // help COMMAND
        name = argv[2];
        args = {argv[2], help};
    }
    const auto it = registry().find(name);
    if (it == registry().end()) {
        std::vector<std::string> names;
        for (const auto& [known, command] : registry())
            names.push_back(known);
        std::cerr << "error: unknown command '" << name << "'";
        if (const std::string guess = nearest(name, names); !guess.empty())
            std::cerr << "; did you mean " << guess << "?";
        std::cerr << "\nRun 'kinetoscope-cli --help' for the commands.\n";
        return kExitUsage;
    }
    return runCommand(it->second, static_cast<int>(args.size()), args.data());
}

} // namespace kscope::cli
