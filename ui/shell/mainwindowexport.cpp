// File > Export Chart, Export Table and Export All: what the views show, as PNG/PDF and CSV.

#include "shell/mainwindow.h"

#include "common/filewriting.h"
#include "common/format.h"
#include "plots/chartview.h"
#include "session/runsession.h"
#include "shell/viewexport.h"
#include "views/analysisview.h"

#include "model/trace.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFileDialog>
#include <QInputDialog>
#include <QMessageBox>

#include <algorithm>

namespace kscope {

ChartView* MainWindow::currentChart() const
{
    if (auto* v = qobject_cast<AnalysisView*>(m_lastView.data()))
        for (ChartView* chart : v->charts())
            if (chart->hasFocus() || v->charts().size() == 1)
                return chart;
    const AnalysisView* temporal = view(QStringLiteral("temporal"));
    return temporal ? temporal->charts().value(0) : nullptr;
}

void MainWindow::exportChartDialog()
{
    QStringList names;
    QList<ChartView*> charts;
    for (AnalysisView* v : std::as_const(m_views))
        for (ChartView* chart : v->charts()) {
            names << tr("%1: %2").arg(v->title(), chart->title().isEmpty() ? chart->exportName() : chart->title());
            charts << chart;
        }
    bool ok = false;
    const QString choice = QInputDialog::getItem(this, tr("Export Chart"), tr("Chart:"), names,
                                                 std::max<int>(0, charts.indexOf(currentChart())), false, &ok);
    if (!ok)
        return;
    ChartView* chart = charts.value(names.indexOf(choice));
    QString filter = tr("PNG image (*.png)");
    const QString path = QFileDialog::getSaveFileName(this, tr("Export Chart"), exportSuggestion(chart->exportName() + QStringLiteral(".png")),
                                                      tr("PNG image (*.png);;PDF (*.pdf)"), &filter);
    if (path.isEmpty())
        return;
    rememberExport(path);
    QString error;
    if (chart->exportImage(path, 0, 0, &error))
        showStatus(tr("Wrote %1").arg(QDir::toNativeSeparators(path)));
    else
        QMessageBox::warning(this, tr("Export Chart"), tr("Could not write %1").arg(error));
}

void MainWindow::exportTableDialog()
{
    QStringList names;
    QList<TableExport> tables;
    for (AnalysisView* v : std::as_const(m_views))
        for (const TableExport& table : v->tables()) {
            names << tr("%1: %2").arg(v->title(), table.name);
            tables << table;
        }
    if (tables.isEmpty()) {
        QMessageBox::information(this, tr("Export Table"), tr("No table to export yet: open a run first."));
        return;
    }
    bool ok = false;
    const QString choice = QInputDialog::getItem(this, tr("Export Table as CSV"), tr("Table (all rows):"), names, 0, false, &ok);
    if (!ok)
        return;
    const TableExport& table = tables[names.indexOf(choice)];
    const QString path = QFileDialog::getSaveFileName(this, tr("Export Table as CSV"), exportSuggestion(table.name + QStringLiteral(".csv")),
                                                      tr("CSV (*.csv)"));
    if (path.isEmpty())
        return;
    rememberExport(path);
    QString error;
    if (writeCsvFile(table.table, path, &error))
        showStatus(tr("Wrote %1 (%2)").arg(QDir::toNativeSeparators(path), fmt::count(qint64(table.table.rows.size()), "row", "rows")));
    else
        QMessageBox::warning(this, tr("Export Table"), tr("Could not write %1").arg(error));
}

QStringList MainWindow::exportAll(const QString& folder, QStringList* errors)
{
    QStringList written;
    const QDir dir(folder);
    if (!dir.exists()) {
        if (errors)
            *errors << tr("%1: no such folder").arg(folder);
        return written;
    }
    // What is exported is what the views show once every result is in: wait for them.
    QElapsedTimer clock;
    clock.start();
    while (isBusy() && clock.elapsed() < 120000)
        QCoreApplication::processEvents(QEventLoop::AllEvents, 50);
    if (run() && run()->isPartial()) {
        // Files named like a whole run's must hold a whole run's numbers.
        if (errors)
            *errors << tr("%1: not exported, the run is still loading (%2 of %3 ranks read)")
                           .arg(folder)
                           .arg(run()->ranks.size())
                           .arg(run()->ranks.size() + run()->filesStillLoading);
        return written;
    }
    // A chart that only says why it is empty is no chart: left out, as the report does.
    for (const ViewFiles& files : exportViews(m_views, folder, 900, 500, true)) {
        written << files.charts << files.tables;
        if (errors)
            *errors << files.errors;
    }
    return written;
}

void MainWindow::exportAllDialog()
{
    if (!run()) {
        QMessageBox::information(this, tr("Export All"), tr("Open a run first."));
        return;
    }
    const QString folder = QFileDialog::getExistingDirectory(this, tr("Export All Charts and Tables Into"), exportSuggestion(QString()));
    if (folder.isEmpty())
        return;
    rememberExport(folder);
    QStringList errors;
    const QStringList written = exportAll(folder, &errors);
    showStatus(tr("Wrote %1 into %2").arg(fmt::count(written.size(), "file", "files"), QDir::toNativeSeparators(folder)));
    if (!errors.isEmpty()) {
        const int shown = std::min<int>(int(errors.size()), 8);
        QMessageBox::warning(this, tr("Export All"),
                             tr("Could not write %1:\n%2%3")
                                 .arg(fmt::count(errors.size(), "file", "files"), errors.mid(0, shown).join(QLatin1Char('\n')),
                                      errors.size() > shown ? tr("\n…") : QString()));
    }
}

} // namespace kscope
