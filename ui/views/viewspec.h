#pragma once

#include <QString>
#include <QStringList>
#include <Qt>

#include <functional>
#include <vector>

class QWidget;

namespace kscope {

class AnalysisView;
class RunSession;

// Which selection changes make a view compute again (run, mode and step always do). Changes it
// does not follow only re-highlight what it shows.
enum class Follows : unsigned { Nothing = 0, Ranks = 1, Kernel = 2, Comparison = 4, TimeRange = 8, Op = 16 };
constexpr Follows operator|(Follows a, Follows b) { return Follows(unsigned(a) | unsigned(b)); }
constexpr bool operator&(Follows a, Follows b) { return (unsigned(a) & unsigned(b)) != 0; }

using ViewFactory = std::function<AnalysisView*(const struct ViewSpec&, RunSession*, QWidget*)>;

// One analysis view, declared once, in views/viewregistry.cpp's table: the window builds its
// dock, View menu entry, place in the default layout and in Export All from this. Its analyses,
// drawing and tables are the view's class (views/<name>view.cpp, which gives its factory); the
// session computes and caches what it requests.
struct ViewSpec {
    QString id;                  // also the stem of its exported files' names
    const char* title;           // translated with QObject::tr
    const char* dockObjectName;  // for saved layouts: never rename once shipped
    Follows follows = Follows::Nothing;
    ViewFactory create;
    // Default layout: the dock area, the view it shares a tab stack with, whether its tab is on top.
    Qt::DockWidgetArea area = Qt::RightDockWidgetArea;
    QString tabWith;
    bool raised = true;
    // Drill-down: raise this view's tab when a rank is clicked / a kernel picked in another view.
    bool raiseOnRankClick = false;
    bool raiseOnKernelPick = false;
    // The CLI commands whose answers the view shows: its warning line lists the trace-health
    // problems that degrade one of them (analysis/core/tracehealth.h). Empty: no warning line.
    QStringList commands = {};
};

// Every view of the application, in the View menu's order.
const std::vector<ViewSpec>& viewRegistry();
const ViewSpec* findViewSpec(const QString& id);

// Makes a spec's create() for a view class with the constructor (const ViewSpec&, RunSession*, QWidget*).
template <typename View>
ViewFactory createView()
{
    return [](const ViewSpec& spec, RunSession* session, QWidget* parent) -> AnalysisView* {
        return new View(spec, session, parent);
    };
}

} // namespace kscope
