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

namespace {

enum class Tab { OnTop, Behind };                       // in its tab stack of the default layout
enum class RaiseOn { Nothing, RankClick, KernelPick };  // a drill-down in another view raises it

ViewSpec spec(const char* id, const char* title, const char* dockObjectName, Follows follows, ViewFactory create,
              Qt::DockWidgetArea area, const char* tabWith, Tab tab, RaiseOn raiseOn = RaiseOn::Nothing)
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
            .raiseOnKernelPick = raiseOn == RaiseOn::KernelPick};
}

} // namespace

const std::vector<ViewSpec>& viewRegistry()
{
#define TITLE(text) QT_TRANSLATE_NOOP("kscope::AnalysisView", text)
    using enum Follows;
    constexpr Qt::DockWidgetArea Left = Qt::LeftDockWidgetArea, Right = Qt::RightDockWidgetArea;
    // The View menu's order. The id is also the stem of the view's exported files; the dock's
    // object name keys saved layouts (never rename one that shipped). Then: the selection changes
    // it computes again for, its class, and its place in the default layout.
    static const std::vector<ViewSpec> views{
        spec("overview", TITLE("Overview"), "overviewDock", Nothing, overviewView(), Left, "", Tab::OnTop),
        spec("temporal", TITLE("Temporal breakdown"), "temporalDock", Nothing, temporalView(), Left, "", Tab::OnTop),
        spec("kernels", TITLE("Kernel breakdown"), "kernelBreakdownDock", Nothing, kernelBreakdownView(), Right, "", Tab::OnTop),
        spec("kernel-distribution", TITLE("Kernel distribution"), "kernelDistributionDock", Kernel, kernelDistributionView(), Right,
             "idle", Tab::Behind, RaiseOn::KernelPick),
        spec("idle", TITLE("Idle time"), "idleDock", Ranks, idleView(), Right, "", Tab::OnTop, RaiseOn::RankClick),
        spec("overlap", TITLE("Overlap"), "overlapDock", Nothing, overlapView(), Left, "temporal", Tab::Behind),
        spec("issues", TITLE("Import issues"), "issuesDock", Comparison, issuesView(), Left, "overview", Tab::Behind),
        spec("diff", TITLE("Comparison"), "comparisonDock", Ranks | Comparison, diffView(), Left, "temporal", Tab::Behind),
        spec("launches", TITLE("Kernel launches"), "launchesDock", Ranks, launchView(), Right, "idle", Tab::Behind),
        spec("queue", TITLE("Queue and bandwidth"), "queueDock", Ranks, queueView(), Left, "temporal", Tab::Behind),
        spec("steps", TITLE("Steps and stragglers"), "stepsDock", Nothing, stepsView(), Right, "idle", Tab::Behind),
        spec("patterns", TITLE("Patterns and annotations"), "patternsDock", Ranks, patternsView(), Left, "overview", Tab::Behind),
        spec("collectives", TITLE("Collectives"), "collectivesDock", Nothing, collectivesView(), Right, "overlap", Tab::Behind),
        spec("operators", TITLE("Operators"), "operatorsDock", Ranks | Op, operatorsView(), Right, "idle", Tab::Behind),
        spec("critical-path", TITLE("Critical path"), "criticalPathDock", Ranks, criticalPathView(), Right, "idle", Tab::Behind),
        spec("events", TITLE("Events"), "eventsDock", Ranks | TimeRange, eventsView(), Right, "idle", Tab::Behind),
        spec("memory", TITLE("Memory"), "memoryDock", Ranks, memoryView(), Right, "idle", Tab::Behind),
        spec("timeline", TITLE("Timeline"), "timelineDock", TimeRange, timelineView(), Right, "idle", Tab::Behind),
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
