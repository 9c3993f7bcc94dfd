// The GUI session as a user pays it: `kscope_session_bench RUN_DIR [--steps N] [--whole-run-only | --snapshots FIRST_S INTERVAL_S]` opens the run in
// the main window (offscreen unless QT_QPA_PLATFORM says otherwise), shows every view on the
// whole run, then chooses each step in turn (the first N), showing every view on each, and
// reports how soon the first chart came and what the session's bounded caches (step slices,
// results) hold: the resident set they add and a slice's own bytes, relative to the run. A benchmark target of its own, never a timed test.

#include "session/runsession.h"
#include "shell/loadcontroller.h"
#include "shell/mainwindow.h"
#include "views/analysisview.h"
#include "views/viewspec.h"

#include "model/log.h"
#include "model/runslice.h"
#include "model/trace.h"

#include <QApplication>
#include <QDockWidget>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QTimer>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <malloc.h>
#include <string>
#include <unistd.h>
#include <vector>

using namespace kscope;

namespace {

double residentMb()
{
    malloc_trim(0);  // freed heap glibc keeps for reuse is not held by the session
    std::ifstream statm("/proc/self/statm");
    double pages = 0, resident = 0;
    statm >> pages >> resident;
    return resident * double(sysconf(_SC_PAGESIZE)) / (1024.0 * 1024.0);
}

double peakResidentMb()
{
    std::ifstream status("/proc/self/status");
    std::string line;
    while (std::getline(status, line))
        if (line.rfind("VmHWM:", 0) == 0)
            return std::stod(line.substr(6)) / 1024.0;
    return 0;
}

// Until the window has a run and nothing is loading or computing (false after 10 minutes).
bool waitIdle(MainWindow& window)
{
    QElapsedTimer clock;
    clock.start();
    while (!(window.run() && !window.isBusy())) {
        if (clock.elapsed() > 600000)
            return false;
        QEventLoop loop;
        QObject::connect(window.session(), &RunSession::idle, &loop, &QEventLoop::quit);
        QTimer::singleShot(200, &loop, &QEventLoop::quit);
        loop.exec();
    }
    QCoreApplication::processEvents();
    return true;
}

// Raises each view's dock in turn so that it computes what it shows.
bool showEveryView(MainWindow& window)
{
    for (const ViewSpec& spec : viewRegistry()) {
        window.dock(spec.id)->raise();
        QCoreApplication::processEvents();
        if (!waitIdle(window))
            return false;
    }
    return true;
}

void row(const char* name, double value, const char* unit)
{
    std::printf("%-34s %12.6g %s\n", name, value, unit);
}

} // namespace

int main(int argc, char** argv)
{
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    Log::configureFromEnvironment();  // KSCOPE_LOG=model=info names each snapshot and its cost
    QApplication::setApplicationName(QStringLiteral("kscope-session-bench"));  // its own saved settings
    const QStringList args = QApplication::arguments();
    if (args.size() < 2 || args.at(1).startsWith(QLatin1Char('-'))) {
        std::fprintf(stderr, "usage: kscope_session_bench RUN_DIR [--steps N] [--whole-run-only | --snapshots FIRST_S INTERVAL_S]\n");
        return 2;
    }
    int maxSteps = 1 << 30;
    if (const qsizetype at = args.indexOf(QStringLiteral("--steps")); at > 0 && at + 1 < args.size())
        maxSteps = std::max(1, args.at(at + 1).toInt());

    MainWindow window;
    if (args.contains(QStringLiteral("--whole-run-only")))
        window.loader()->setProgressive(false);  // no snapshots while loading: the load alone
    if (const qsizetype at = args.indexOf(QStringLiteral("--snapshots")); at > 0 && at + 2 < args.size())
        window.loader()->setProgressiveTiming(args.at(at + 1).toDouble(), args.at(at + 2).toDouble());
    window.resize(1600, 1000);
    window.show();
    // How soon the user sees a chart: the first view presenting a result of the run being opened
    // (a progressive load's snapshot, or the whole run), against the whole run's arrival.
    QElapsedTimer opening;
    double firstChartMs = -1, wholeRunMs = -1;
    size_t firstChartRanks = 0;
    for (AnalysisView* view : window.views())
        QObject::connect(view, &AnalysisView::presented, &window, [&, view] {
            if (firstChartMs < 0 && window.run() && view->isCurrent() && !view->charts().isEmpty()) {
                firstChartMs = double(opening.nsecsElapsed()) / 1e6;
                firstChartRanks = window.run()->ranks.size();
            }
        });
    QObject::connect(&window, &MainWindow::runChanged, &window, [&] { wholeRunMs = double(opening.nsecsElapsed()) / 1e6; });
    opening.start();
    window.openRun(args.at(1));
    if (!waitIdle(window) || !window.run() || window.run()->ranks.empty()) {
        std::fprintf(stderr, "kscope_session_bench: %s did not load\n", qPrintable(args.at(1)));
        return 1;
    }
    const double viewsReadyMs = double(opening.nsecsElapsed()) / 1e6;
    const std::shared_ptr<const Run> run = window.run();
    double runMb = 0;
    for (const RankTrace& rank : run->ranks)
        runMb += double(rank.residentBytes()) / (1024.0 * 1024.0);
    const double afterLoad = residentMb();
    if (!showEveryView(window))
        return 1;
    const double wholeRun = residentMb();

    std::vector<int> steps;
    for (const RankTrace& rank : run->ranks)
        for (const ProfilerStep& s : rank.steps)
            if (std::find(steps.begin(), steps.end(), s.number) == steps.end())
                steps.push_back(s.number);
    std::sort(steps.begin(), steps.end());
    const size_t stepCount = steps.size();
    steps.resize(std::min<size_t>(steps.size(), size_t(maxSteps)));
    double stepping = wholeRun;
    int resultsPeak = window.session()->cachedResultCount(), slicesPeak = 0;
    for (int step : steps) {
        window.session()->selection()->setStep(step);
        if (!showEveryView(window))
            return 1;
        stepping = std::max(stepping, residentMb());
        resultsPeak = std::max(resultsPeak, window.session()->cachedResultCount());
        slicesPeak = std::max(slicesPeak, window.session()->stepSliceCount());
    }
    // What a slice holds, counted directly (the resident set cannot tell a slice from heap the
    // whole run's analyses freed): the last ones shown, as many as the session keeps.
    double sliceMb = 0;
    const size_t held = std::min<size_t>(steps.size(), RunSession::kMaxStepSlices);
    for (size_t i = steps.size() - held; i < steps.size(); ++i)
        for (const RankTrace& rank : sliceRunToStep(*run, steps[i])->ranks)
            sliceMb += double(rank.residentBytes()) / (1024.0 * 1024.0);
    const double perSlice = held ? sliceMb / double(held) : 0;
    row("first_chart_after_open", firstChartMs, "ms");
    row("first_chart_ranks", double(firstChartRanks), "");
    row("whole_run_after_open", wholeRunMs, "ms");
    row("views_ready_after_open", viewsReadyMs, "ms");
    row("run_resident", runMb, "MB");
    row("rss_after_load", afterLoad, "MB");
    row("rss_added_by_every_view", wholeRun - afterLoad, "MB");
    row("rss_added_by_every_view_over_run", runMb > 0 ? (wholeRun - afterLoad) / runMb : 0, "ratio");
    row("steps_in_run", double(stepCount), "");
    row("steps_shown", double(steps.size()), "");
    row("step_slices_held_peak", slicesPeak, "");
    row("step_slice_size", perSlice, "MB");
    row("step_slice_over_run", runMb > 0 ? perSlice / runMb : 0, "ratio");
    row("results_cached_peak", resultsPeak, "");
    row("results_cached_bound", RunSession::kMaxCachedResults, "");
    row("rss_added_by_stepping", stepping - wholeRun, "MB");
    row("rss_added_by_stepping_over_run", runMb > 0 ? (stepping - wholeRun) / runMb : 0, "ratio");
    row("peak_rss", peakResidentMb(), "MB");
    return 0;
}
