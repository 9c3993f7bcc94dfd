// The options every command shares, declared once, and the validators all options use.

#include "command.h"

#include "model/log.h"

#include <CLI/CLI.hpp>

#include <algorithm>
#include <charconv>
#include <climits>
#include <cstdint>
#include <cmath>
#include <sstream>

namespace kscope::cli {

namespace {

bool parseWhole(const std::string& text, int64_t& value)
{
    const char* begin = text.data();
    const char* end = begin + text.size();
    if (begin != end && *begin == '+')
        ++begin;
    const auto [ptr, ec] = std::from_chars(begin, end, value);
    return ec == std::errc() && ptr == end && begin != end;
}

bool parseNumber(const std::string& text, double& value)
{
    if (text.empty())
        return false;
    try {
        size_t used = 0;
        value = std::stod(text, &used);
        return used == text.size() && std::isfinite(value);
    } catch (...) {
        return false;
    }
}

} // namespace

std::string shownDefault(double value)
{
    std::ostringstream text;
    text << value;
    return text.str();
}

CLI::Validator wholeNumber(int64_t lowest, int64_t highest)
{
    const std::string range = "a whole number from " + std::to_string(lowest) + " to " + std::to_string(highest);
    return CLI::Validator(
        [=](std::string& text) -> std::string {
            int64_t value = 0;
            if (!parseWhole(text, value) || value < lowest || value > highest)
                return "expects " + range + ", got '" + text + "'";
            return {};
        },
        "");
}

CLI::Validator numberFrom(double lowest, double highest)
{
    std::string range = "a number from " + shownDefault(lowest);
    if (std::isfinite(highest))
        range += " to " + shownDefault(highest);
    else
        range = "a number >= " + shownDefault(lowest);
    return CLI::Validator(
        [=](std::string& text) -> std::string {
            double value = 0.0;
            if (!parseNumber(text, value) || value < lowest || value > highest)
                return "expects " + range + ", got '" + text + "'";
            return {};
        },
        "");
}

CLI::Validator oneOf(std::vector<std::string> values)
{
    std::string list;
    for (size_t i = 0; i < values.size(); ++i)
        list += (i ? (i + 1 == values.size() ? " or " : ", ") : "") + values[i];
    return CLI::Validator(
        [=](std::string& text) -> std::string {
            if (std::find(values.begin(), values.end(), text) == values.end())
                return "expects " + list + ", got '" + text + "'";
            return {};
        },
        "");
}

bool parseIntList(const std::string& text, std::vector<int>& values)
{
    values.clear();
    size_t pos = 0;
    while (pos <= text.size()) {
        const size_t comma = std::min(text.find(',', pos), text.size());
        const std::string item = text.substr(pos, comma - pos);
        int64_t value = 0;
        if (!parseWhole(item, value) || value < INT32_MIN || value > INT32_MAX)
            return false;
        values.push_back(static_cast<int>(value));
        pos = comma + 1;
    }
    return !values.empty();
}

CLI::Validator intList()
{
    return CLI::Validator(
        [](std::string& text) -> std::string {
            std::vector<int> values;
            if (!parseIntList(text, values))
                return "expects a comma-separated list of whole numbers like 7,20, got '" + text + "'";
            return {};
        },
        "");
}

void addCommonOptions(CLI::App& app, Invocation& invocation, unsigned which)
{
    const std::string group = "Common options";
    CommonOptions& common = invocation.common;
    if (which & kRunInput)
        app.add_option("RUN", invocation.inputs,
                       "the run: one folder of traces (one *.json or *.json.gz per rank), or one or more trace "
                       "files that form one run (run/rank*.json.gz)")
            ->required()
            ->type_name("");
    if (which & kTableOutput) {
        app.add_option_function<std::string>(
               "--format",
               [&common](const std::string& value) {
                   common.format = value == "table" ? OutputFormat::Table
                       : value == "json"            ? OutputFormat::Json
                                                    : OutputFormat::Csv;
               },
               "table, csv or json (default: table on a terminal, csv otherwise)")
            ->check(oneOf({"table", "csv", "json"}))
            ->type_name("FMT")
            ->group(group);
        app.add_option("-o,--output", common.outputFile,
                       "write the result to FILE (through a temporary file renamed over it) instead of stdout")
            ->type_name("FILE")
            ->group(group);
        app.add_option("--width", common.width,
                       "table format: fit rows in N characters by leaving low-value columns out (default: the "
                       "terminal's width; 0 = never)")
            ->check(wholeNumber(0, 100000))
            ->type_name("N")
            ->group(group);
        app.add_flag("--full-names", common.fullNames,
                     "table format: kernel names in full (default: HTA's short names, told apart)")
            ->group(group);
    }
    if (which & kLoadOptions) {
        app.add_flag("--hta-compat", common.htaCompat, "reproduce HTA's numbers and column names exactly")
            ->group(group);
        app.add_flag("--include-last-step", common.includeLastStep,
                     "keep GPU work of the last ProfilerStep (HTA trims it by default)")
            ->group(group);
        app.add_flag("--allow-partial", common.allowPartial,
                     "exit 0 even when ranks failed, were cut short or are missing (they are still marked)")
            ->group(group);
        app.add_option_function<std::string>(
               "--ranks",
               [&common](const std::string& value) { common.ranks = *RankSet::parse(value); },
               "only these ranks, e.g. 0,2-5 (a rank that is not in the run is named; exit 3)")
            ->check(CLI::Validator(
                [](std::string& text) -> std::string {
                    std::string error;
                    return RankSet::parse(text, &error) ? std::string() : error;
                },
                ""))
            ->type_name("LIST")
            ->group(group);
        app.add_option("--max-uncompressed-mb", common.maxUncompressedMb,
                       "stop reading a file past this many MiB of JSON, a gzip bomb's guard (default: twice the "
                       "physical memory, at least 8192)")
            ->check(wholeNumber(1, int64_t(1) << 40))
            ->type_name("N")
            ->group(group);
    }
    if (which & kStep)
        app.add_option("--step", common.step,
                       "only ProfilerStep N: its CPU events and the GPU work they launched, on every rank (HTA's "
                       "iteration filter)")
            ->check(wholeNumber(0, INT32_MAX))
            ->type_name("N")
            ->group(group);
    app.add_option_function<std::string>(
           "--log-level", [&common](const std::string& value) { common.logLevel = value; },
           "debug, info, warning, error or off, or per category: model=debug,cli=info")
        ->check(CLI::Validator(
            [](std::string& text) -> std::string {
                return Log::configure(text) ? std::string()
                                            : "expects debug, info, warning, error, off or model=debug,cli=info, got '"
                        + text + "'";
            },
            ""))
        ->type_name("LEVEL")
        ->group(group);
}

LoadOptions loadOptionsFor(const Invocation& invocation)
{
    LoadOptions options;
    options.htaCompat = invocation.common.htaCompat;
    options.includeLastStep = invocation.common.includeLastStep;
    options.onlyRanks = invocation.common.ranks;
    if (invocation.common.maxUncompressedMb > 0)
        options.maxUncompressedBytes = uint64_t(invocation.common.maxUncompressedMb) << 20;
    return options;
}

Invocation withRank(const Invocation& invocation, int rank)
{
    Invocation local = invocation;
    if (rank >= 0) {
        local.common.ranks = RankSet();
        local.common.ranks.insert(rank);
    }
    return local;
}

} // namespace kscope::cli
