#include "shell/report.h"

#include "common/filewriting.h"
#include "common/format.h"
#include "session/runsession.h"
#include "shell/viewexport.h"
#include "views/analysisview.h"
#include "views/viewspec.h"

#include "analysis/tables/resulttables.h"
#include "analysis/core/runsummary.h"
#include "analysis/core/temporalbreakdown.h"
#include "analysis/patterns/steps.h"
#include "model/trace.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QDir>
#include <QElapsedTimer>
#include <QFileInfo>

#include <algorithm>
#include <set>

namespace kscope {

namespace {

QString htmlTable(const Table& table)
{
    QString html = QStringLiteral("<table><tr>");
    for (const std::string& column : table.columns)
        html += QStringLiteral("<th>%1</th>").arg(fmt::qstr(column).toHtmlEscaped());
    html += QStringLiteral("</tr>");
    for (const auto& row : table.rows) {
        html += QStringLiteral("<tr>");
        for (const Cell& cell : row)
            html += QStringLiteral("<td>%1</td>").arg(fmt::qstr(formatCell(cell)).toHtmlEscaped());
        html += QStringLiteral("</tr>");
    }
    return html + QStringLiteral("</table>");
}

QString runFacts(const Run& run, const QString& path)
{
    const RunSummary s = summarizeRun(run);
    QStringList devices;
    for (const std::string& d : s.devices)
        devices << fmt::qstr(d);
    return QStringLiteral("<p><b>%1</b> — %2, %3 events, %4 on disk, mode: %5%6</p>")
        .arg(QDir::toNativeSeparators(path).toHtmlEscaped(), fmt::count(s.ranks, "rank", "ranks"),
             QString::number(s.events), fmt::bytes(s.compressedBytes),
             run.htaCompat ? QStringLiteral("HTA-compatible") : QStringLiteral("exact (ns)"),
             devices.isEmpty() ? QString() : QStringLiteral(", ") + devices.join(QStringLiteral(", ")).toHtmlEscaped());
}

// What a reader wants before any chart: the step time, who is slow, and where every rank's GPU
// time went.
QString headline(const Run& run)
{
    QString html = QStringLiteral("<h2>Headline</h2>");
    const ProfilerSteps steps = profilerSteps(run);
    const StepTimeStats times = stepTimeStats(steps, StepClock::GpuElseCpu);
    if (times.spans == 0) {
        html += QStringLiteral("<p>No ProfilerStep: step times cannot be given; the numbers below cover the whole trace.</p>");
    } else {
        std::set<int> stepRanks;
        for (const StepSpan& span : steps.spans)
            stepRanks.insert(span.rank);
        html += QStringLiteral("<p><b>Step time</b> %1 (median of %2 steps × %3; %4 – %5).")
                    .arg(fmt::duration(times.medianNs))
                    .arg(steps.steps.size())
                    .arg(fmt::count(qint64(stepRanks.size()), "rank", "ranks"))
                    .arg(fmt::duration(times.minNs), fmt::duration(times.maxNs));
        // A slowest rank only when it is slower by more than noise.
        if (stepRanks.size() > 1 && times.slowestMedianNs > 1.02 * times.medianNs)
            html += QStringLiteral(" <b>Slowest rank</b>: %1 (median %2, %3 above the run's).")
                        .arg(times.slowestRank)
                        .arg(fmt::duration(times.slowestMedianNs), fmt::percent(100.0 * (times.slowestMedianNs / times.medianNs - 1.0)));
        else if (stepRanks.size() > 1)
            html += QStringLiteral(" Every rank's median step time is within 2% of the run's.");
        const Stragglers stragglers = potentialStragglers(run, {.htaCompat = run.htaCompat});
        if (!stragglers.ranks.empty()) {
            QStringList ranks;
            for (int r : stragglers.ranks)
                ranks << QString::number(r);
            html += QStringLiteral(" <b>Potential stragglers</b> (HTA's late-start rule): rank %1.").arg(ranks.join(QStringLiteral(", ")));
        }
        html += QStringLiteral("</p>");
    }
    const TemporalBreakdown temporal = temporalBreakdown(run, {.htaCompat = run.htaCompat});
    if (!temporal.error.empty()) {
        html += QStringLiteral("<p>No temporal breakdown: %1</p>").arg(fmt::qstr(temporal.error).toHtmlEscaped());
        return html;
    }
    html += QStringLiteral("<table><tr><th>rank</th><th>GPU span</th><th>idle</th><th>compute</th><th>communication, "
                           "memory, sync</th><th>idle %</th></tr>");
    // Many ranks: those with the most idle time, said so.
    std::vector<const TemporalBreakdownRow*> rows;
    for (const TemporalBreakdownRow& row : temporal.rows)
        rows.push_back(&row);
    constexpr size_t kMaxRows = 32;
    const bool cut = rows.size() > kMaxRows;
    if (cut) {
        std::stable_sort(rows.begin(), rows.end(), [](auto* a, auto* b) { return a->idleNs > b->idleNs; });
        rows.resize(kMaxRows);
    }
    for (const TemporalBreakdownRow* row : rows)
        html += QStringLiteral("<tr><td>%1</td><td>%2</td><td>%3</td><td>%4</td><td>%5</td><td>%6</td></tr>")
                    .arg(row->rank)
                    .arg(fmt::duration(double(row->spanNs)), fmt::duration(double(row->idleNs)),
                         fmt::duration(double(row->computeNs)), fmt::duration(double(row->nonComputeNs)),
                         fmt::percent(row->idlePctg));
    html += QStringLiteral("</table>");
    if (cut)
        html += QStringLiteral("<p>The %1 ranks with the most idle time of %2; temporal.csv has every rank.</p>")
                    .arg(kMaxRows)
                    .arg(temporal.rows.size());
    return html;
}

} // namespace

ReportOutput writeReport(const ReportInput& input, const QString& outDir)
{
    ReportOutput out;
    if (!QDir().mkpath(outDir)) {
        out.error = QStringLiteral("cannot create %1").arg(outDir);
        return out;
    }
    // The views of the window, unshown, at a size their charts read well at.
    RunSession session;
    QWidget host;
    QList<AnalysisView*> views;
    for (const ViewSpec& spec : viewRegistry()) {
        AnalysisView* view = spec.create(spec, &session, &host);
        view->resize(1100, 650);
        views << view;
    }
    session.setRun(input.run, input.path);
    if (input.compare)
        session.setTestRun(input.compare, input.comparePath);
    QElapsedTimer clock;
    clock.start();
    const auto busy = [&] {
        if (session.isBusy())
            return true;
        return std::any_of(views.begin(), views.end(), [](const AnalysisView* v) { return v->isBusy(); });
    };
    while (busy() && clock.elapsed() < 600000)
        QCoreApplication::processEvents(QEventLoop::AllEvents, 20);

    const QList<ViewFiles> written = exportViews(views, outDir, 1100, 600, true);
    QString html = QStringLiteral(
        "<!DOCTYPE html><html><head><meta charset=\"utf-8\"><title>Kinetoscope report: %1</title><style>"
        "body{font-family:sans-serif;margin:24px;color:#222} img{max-width:100%;border:1px solid #ddd;margin:6px 0}"
        "table{border-collapse:collapse;font-size:12px} td,th{border:1px solid #ccc;padding:2px 6px}"
        "h2{border-bottom:1px solid #ccc;padding-bottom:4px}</style></head><body>")
                       .arg(QFileInfo(input.path).fileName().toHtmlEscaped());
    html += QStringLiteral("<h1>Kinetoscope report</h1><p>Written %1 by Kinetoscope %2.</p>")
                .arg(QDateTime::currentDateTime().toString(Qt::ISODate), QCoreApplication::applicationVersion());
    html += runFacts(*input.run, input.path);
    if (input.compare)
        html += QStringLiteral("<p>Compared with:</p>") + runFacts(*input.compare, input.comparePath);
    html += headline(*input.run);
    const Table issues = importIssuesTable(*input.run);
    html += QStringLiteral("<h2>Import issues</h2>")
        + (issues.rows.empty() ? QStringLiteral("<p>None: every file was read whole.</p>") : htmlTable(issues));
    for (const ViewFiles& files : written) {
        if (files.charts.isEmpty() && files.tables.isEmpty())
            continue;
        html += QStringLiteral("<h2>%1</h2>").arg(files.title.toHtmlEscaped());
        for (const QString& chart : files.charts)
            html += QStringLiteral("<img src=\"%1\" alt=\"%2\">").arg(QFileInfo(chart).fileName().toHtmlEscaped(),
                                                                      files.title.toHtmlEscaped());
        if (!files.tables.isEmpty()) {
            html += QStringLiteral("<p>Tables (the CLI's columns):");
            for (const QString& table : files.tables)
                html += QStringLiteral(" <a href=\"%1\">%1</a>").arg(QFileInfo(table).fileName().toHtmlEscaped());
            html += QStringLiteral("</p>");
        }
        out.files << files.charts << files.tables;
    }
    html += QStringLiteral("</body></html>\n");
    out.indexPath = QDir(outDir).filePath(QStringLiteral("index.html"));
    QString error;
    if (!writeFileAtomically(out.indexPath, html.toUtf8(), &error)) {
        out.error = error;
        return out;
    }
    out.files << out.indexPath;
    return out;
}

} // namespace kscope
