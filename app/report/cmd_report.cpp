// kinetoscope-cli report RUN --out DIR [--compare OTHER_RUN]: every chart the GUI shows as PNG
// (drawn offscreen by the same code), every table as CSV and an index.html — what a user attaches
// to a bug report or publishes from CI. Built only with the GUI (it links the views).

#include "cli/command.h"

#include "report/offscreenapp.h"
#include "shell/report.h"

#include "model/trace.h"

#include <CLI/CLI.hpp>

#include <iostream>

namespace kscope::cli {

namespace {

struct ReportArgs {
    std::string out;
    std::string compare;
};

int runReport(const Invocation& invocation, const ReportArgs& args)
{
    // No display is needed: a report is drawn offscreen unless the caller chose a platform.
    const std::unique_ptr<QApplication> app = offscreenApplication();

    int exitCode = kExitOk;
    const auto loaded = loadRunForCommand(invocation, exitCode);
    if (!loaded)
        return exitCode;
    ReportInput input{loaded->run, QString::fromStdString(invocation.inputs.front()), nullptr, {}};
    std::optional<LoadedRun> other;
    if (!args.compare.empty()) {
        Invocation second = invocation;
        second.inputs = {args.compare};
        other = loadRunForCommand(second, exitCode, "compared run");
        if (!other)
            return exitCode;
        input.compare = other->run;
        input.comparePath = QString::fromStdString(args.compare);
    }
    const ReportOutput out = writeReport(input, QString::fromStdString(args.out));
    if (!out.error.isEmpty()) {
        std::cerr << "error: cannot write the report: " << out.error.toStdString() << '\n';
        return kExitOutputFailed;
    }
    std::cout << out.indexPath.toStdString() << '\n';
    std::cerr << "note: wrote " << out.files.size() << " files into " << args.out << '\n';
    const bool incomplete = loaded->incomplete || (other && other->incomplete);
    return incomplete && !invocation.common.allowPartial ? kExitIncomplete : kExitOk;
}

Action setupReport(CLI::App& app, const Invocation& invocation)
{
    auto args = std::make_shared<ReportArgs>();
    app.add_option("--out,-o,--output", args->out, "folder to write the report into (created if missing)")->required();
    app.add_option("--compare", args->compare, "a second run: the Comparison view shows both");
    return [&invocation, args] { return runReport(invocation, *args); };
}

const CommandRegistrar kRegistrar{
    {"report", "Every chart (PNG) and table (CSV) of the GUI's views, and an index.html, without a display",
     "Draws each view of the desktop application offscreen for the run (the views of one rank show\n"
     "its first rank; --ranks narrows the run) and writes its charts, its tables (the CLI's columns)\n"
     "and an index.html with the run's metadata and import issues into --out. Prints the index's path.",
     &setupReport, kRunInput | kLoadOptions}};

} // namespace

} // namespace kscope::cli
