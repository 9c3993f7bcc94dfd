#pragma once

#include <QList>
#include <QString>
#include <QStringList>

namespace kscope {

class AnalysisView;

// What Export All and the headless report write for each view that shows the current run,
// mode and step: every chart as PNG (at least minWidth x minHeight) and every table as CSV.
struct ViewFiles {
    QString viewId;
    QString title;
    QStringList charts;  // paths written
    QStringList tables;
    QStringList errors;  // "path: why", for each file that could not be written
};
// skipMessages: leave out charts that only say why they are empty (a report has no use for them).
QList<ViewFiles> exportViews(const QList<AnalysisView*>& views, const QString& folder, int minWidth = 900,
                             int minHeight = 500, bool skipMessages = false);

} // namespace kscope
