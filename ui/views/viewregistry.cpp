#include "views/viewspec.h"

namespace kscope {

// Each view's class lives in its own file, which gives its factory; adding a view is that file
// plus one line of the table below.
ViewFactory overviewView();
ViewFactory temporalView();
ViewFactory kernelBreakdownView();
ViewFactory kernelDistributionView();
ViewFactory idleView();
ViewFactory overlapView();
ViewFactory issuesView();
ViewFactory healthView();
ViewFactory diffView();
ViewFactory launchView();
ViewFactory queueView();
ViewFactory stepsView();
ViewFactory patternsView();
ViewFactory collectivesView();
ViewFactory operatorsView();
ViewFactory criticalPathView();
ViewFactory eventsView();
ViewFactory memoryView();
ViewFactory timelineView();
ViewFactory findingsView();

namespace {

enum class Tab { OnTop, Behind };                       // in its tab stack of the default layout
enum class RaiseOn { Nothing, RankClick, KernelPick };  // a drill-down in another view raises it

ViewSpec spec(const char* id, const char* title, const char* dockObjectName, Follows follows, ViewFactory create,
              Qt::DockWidgetArea area, const char* tabWith, Tab tab, RaiseOn raiseOn, const char* commands)
{
    return {.id = QString::fromLatin1(id),
            .title = title,
            .dockObjectName = dockObjectName,
            .follows = follows,
            .create = std::move(create),
            .area = area,
            .tabWith = QString::fromLatin1(tabWith),
            .raised = tab == Tab::OnTop,
            .raiseOnRankClick = raiseOn == RaiseOn::RankClick,
            .raiseOnKernelPick = raiseOn == RaiseOn::KernelPick,
            .commands = QString::fromLatin1(commands).split(QLatin1Char(','), Qt::SkipEmptyParts)};
}

} // namespace

const std::vector<ViewSpec>& viewRegistry()
{
#define TITLE(text) QT_TRANSLATE_NOOP("kscope::AnalysisView", text)
    using enum Follows;
    constexpr Qt::DockWidgetArea Left = Qt::LeftDockWidgetArea, Right = Qt::RightDockWidgetArea;
    // The View menu's order. The id is also the stem of the view's exported files; the dock's
    // object name keys saved layouts (never rename one that shipped). Then: the selection changes
    // it computes again for, its class, its place in the default layout, and the CLI commands
    // whose answers it shows (its trace-health warning line names the problems that touch them).
    static const std::vector<ViewSpec> views{
        spec("overview", TITLE("Overview"), "overviewDock", Nothing, overviewView(), Left, "", Tab::OnTop, RaiseOn::Nothing, "temporal,kernels,idle,overlap"),
        spec("findings", TITLE("Findings"), "findingsDock", Nothing, findingsView(), Left, "overview", Tab::Behind, RaiseOn::Nothing, "findings"),
        spec("temporal", TITLE("Temporal breakdown"), "temporalDock", Nothing, temporalView(), Left, "", Tab::OnTop, RaiseOn::Nothing, "temporal"),
        spec("kernels", TITLE("Kernel breakdown"), "kernelBreakdownDock", Nothing, kernelBreakdownView(), Right, "", Tab::OnTop, RaiseOn::Nothing, "kernels"),
        spec("kernel-distribution", TITLE("Kernel distribution"), "kernelDistributionDock", Kernel, kernelDistributionView(), Right,
             "idle", Tab::Behind, RaiseOn::KernelPick, "kernel-dist"),
        spec("idle", TITLE("Idle time"), "idleDock", Ranks, idleView(), Right, "", Tab::OnTop, RaiseOn::RankClick, "idle,idle-causes,idle-hist"),
        spec("overlap", TITLE("Overlap"), "overlapDock", Nothing, overlapView(), Left, "temporal", Tab::Behind, RaiseOn::Nothing, "overlap"),
        spec("issues", TITLE("Import issues"), "issuesDock", Comparison, issuesView(), Left, "overview", Tab::Behind, RaiseOn::Nothing, ""),
        spec("health", TITLE("Trace health"), "healthDock", Nothing, healthView(), Left, "overview", Tab::Behind,
             RaiseOn::Nothing, ""),
        spec("diff", TITLE("Comparison"), "comparisonDock", Ranks | Comparison, diffView(), Left, "temporal", Tab::Behind, RaiseOn::Nothing, "diff"),
        spec("launches", TITLE("Kernel launches"), "launchesDock", Ranks, launchView(), Right, "idle", Tab::Behind, RaiseOn::Nothing, "launch-stats"),
        spec("queue", TITLE("Queue and bandwidth"), "queueDock", Ranks, queueView(), Left, "temporal", Tab::Behind, RaiseOn::Nothing, "queue-length"),
        spec("steps", TITLE("Steps and stragglers"), "stepsDock", Nothing, stepsView(), Right, "idle", Tab::Behind, RaiseOn::Nothing, "steps,stragglers"),
        spec("patterns", TITLE("Patterns and annotations"), "patternsDock", Ranks, patternsView(), Left, "overview", Tab::Behind, RaiseOn::Nothing, "patterns"),
        spec("collectives", TITLE("Collectives"), "collectivesDock", Nothing, collectivesView(), Right, "overlap", Tab::Behind, RaiseOn::Nothing, "collectives,clock-skew"),
        spec("operators", TITLE("Operators"), "operatorsDock", Ranks | Op, operatorsView(), Right, "idle", Tab::Behind, RaiseOn::Nothing, "ops"),
        spec("critical-path", TITLE("Critical path"), "criticalPathDock", Ranks, criticalPathView(), Right, "idle", Tab::Behind, RaiseOn::Nothing, "critical-path"),
        spec("events", TITLE("Events"), "eventsDock", Ranks | TimeRange, eventsView(), Right, "idle", Tab::Behind, RaiseOn::Nothing, ""),
        spec("memory", TITLE("Memory"), "memoryDock", Ranks, memoryView(), Right, "idle", Tab::Behind, RaiseOn::Nothing, "memory"),
        spec("timeline", TITLE("Timeline"), "timelineDock", TimeRange, timelineView(), Right, "idle", Tab::Behind, RaiseOn::Nothing, "timeline"),
    };
#undef TITLE
    return views;
}

const ViewSpec* findViewSpec(const QString& id)
{
    for (const ViewSpec& spec : viewRegistry())
        if (spec.id == id)
            return &spec;
    return nullptr;
}

} // namespace kscope
