#include "shell/viewexport.h"

#include "common/filewriting.h"
#include "plots/chartview.h"
#include "views/analysisview.h"

#include <QDir>

#include <algorithm>

namespace kscope {

QList<ViewFiles> exportViews(const QList<AnalysisView*>& views, const QString& folder, int minWidth, int minHeight,
                             bool skipMessages)
{
    QList<ViewFiles> written;
    const QDir dir(folder);
    if (!dir.exists())
        return written;
    for (AnalysisView* view : views) {
        if (!view->isCurrent())
            continue;  // still computing: never another state's numbers
        ViewFiles files{view->id(), view->title(), {}, {}};
        for (ChartView* chart : view->charts()) {
            if (skipMessages && !chart->message().isEmpty())
                continue;
            const QString path = dir.filePath(chart->exportName() + QStringLiteral(".png"));
            QString error;
            if (chart->exportImage(path, std::max(chart->width(), minWidth), std::max(chart->height(), minHeight), &error))
                files.charts << path;
            else
                files.errors << error;
        }
        for (const PictureExport& picture : view->pictures(QSize(minWidth, minHeight))) {
            const QString path = dir.filePath(picture.name + QStringLiteral(".png"));
            QString error;
            if (writePngFile(picture.image, path, &error))
                files.charts << path;
            else
                files.errors << error;
        }
        for (const TableExport& table : view->tables()) {
            const QString path = dir.filePath(table.name + QStringLiteral(".csv"));
            QString error;
            if (writeCsvFile(table.table, path, &error))
                files.tables << path;
            else
                files.errors << error;
        }
        written.push_back(files);
    }
    return written;
}

} // namespace kscope
