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

// Who is slow: the step times, the slowest rank when it is slower than noise, HTA's stragglers.
struct SlowRanks {
    ProfilerSteps steps;
    StepTimeStats times;
    size_t stepRanks = 0;
    bool slowestBeyondNoise = false;  // its median step time more than 2% above the run's
    Stragglers stragglers;

    // The ranks a reader wants every per-rank section of, each with why.
    QList<QPair<int, QString>> ranksThatMatter() const
    {
        QList<QPair<int, QString>> ranks;
        if (slowestBeyondNoise)
            ranks.push_back({times.slowestRank, QStringLiteral("the slowest rank")});
        for (int r : stragglers.ranks)
            if (!(slowestBeyondNoise && r == times.slowestRank))
                ranks.push_back({r, QStringLiteral("a potential straggler")});
        return ranks;
    }
};

SlowRanks slowRanks(const Run& run)
{
    SlowRanks slow;
    slow.steps = profilerSteps(run);
    slow.times = stepTimeStats(slow.steps, StepClock::GpuElseCpu);
    std::set<int> stepRanks;
    for (const StepSpan& span : slow.steps.spans)
        stepRanks.insert(span.rank);
    slow.stepRanks = stepRanks.size();
    slow.slowestBeyondNoise = slow.times.spans > 0 && stepRanks.size() > 1 && slow.times.slowestMedianNs > 1.02 * slow.times.medianNs;
    if (slow.times.spans > 0)
        slow.stragglers = potentialStragglers(run, {.htaCompat = run.htaCompat});
    return slow;
}

// What a reader wants before any chart: the step time, who is slow, and where every rank's GPU
// time went.
QString headline(const Run& run, const SlowRanks& slow)
{
    QString html = QStringLiteral("<h2>Headline</h2>");
    const ProfilerSteps& steps = slow.steps;
    const StepTimeStats& times = slow.times;
    if (times.spans == 0) {
        html += QStringLiteral("<p>No ProfilerStep: step times cannot be given; the numbers below cover the whole trace.</p>");
    } else {
        html += QStringLiteral("<p><b>Step time</b> %1 (median of %2 steps × %3; %4 – %5).")
                    .arg(fmt::duration(times.medianNs))
                    .arg(steps.steps.size())
                    .arg(fmt::count(qint64(slow.stepRanks), "rank", "ranks"))
                    .arg(fmt::duration(times.minNs), fmt::duration(times.maxNs));
        // A slowest rank only when it is slower by more than noise.
        if (slow.slowestBeyondNoise)
            html += QStringLiteral(" <b>Slowest rank</b>: <a href=\"#rank%1\">%1</a> (median %2, %3 above the run's).")
                        .arg(times.slowestRank)
                        .arg(fmt::duration(times.slowestMedianNs), fmt::percent(100.0 * (times.slowestMedianNs / times.medianNs - 1.0)));
        else if (slow.stepRanks > 1)
            html += QStringLiteral(" Every rank's median step time is within 2% of the run's.");
        const Stragglers& stragglers = slow.stragglers;
        if (!stragglers.ranks.empty()) {
            QStringList ranks;
            for (int r : stragglers.ranks)
                ranks << QStringLiteral("<a href=\"#rank%1\">%1</a>").arg(r);
            html += QStringLiteral(" <b>Potential stragglers</b> (HTA's late-start rule): %1 %2.")
                        .arg(ranks.size() > 1 ? QStringLiteral("ranks") : QStringLiteral("rank"), ranks.join(QStringLiteral(", ")));
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

// The report's first section: the Findings view's findings (its table, the CLI's columns), each
// with its evidence in words and what to do; the view's table is what was computed, not redone.
QString findingsSection(const QList<AnalysisView*>& views)
{
    QString html = QStringLiteral("<h2 id=\"findings\">Findings</h2>");
    const auto view = std::find_if(views.begin(), views.end(), [](const AnalysisView* v) { return v->id() == QLatin1String("findings"); });
    const Table* table = nullptr;
    QList<TableExport> tables;
    if (view != views.end())
        tables = (*view)->tables();
    for (const TableExport& t : tables)
        if (t.name == QLatin1String("findings"))
            table = &t.table;
    if (!table)
        return html + QStringLiteral("<p>No findings: the rules could not be evaluated on this run (see the Trace health and Import issues sections).</p>");
    const auto column = [table](const char* name) {
        return size_t(std::find(table->columns.begin(), table->columns.end(), name) - table->columns.begin());
    };
    const size_t severity = column("severity"), title = column("title"), detail = column("detail"),
                 suggestion = column("suggestion"), id = column("id"), stake = column("time_at_stake (us)"),
                 command = column("command");
    const auto text = [](const std::vector<Cell>& row, size_t at) {
        return at < row.size() ? fmt::qstr(formatCell(row[at])).toHtmlEscaped() : QString();
    };
    if (table->rows.empty())
        html += QStringLiteral("<p>None: no rule's threshold is reached (the rules and their thresholds are in the README's \"Findings\").</p>");
    for (const auto& row : table->rows) {
        const QString level = text(row, severity);
        const QString colour = level == QLatin1String("critical") ? QStringLiteral("#be1e1e")
                               : level == QLatin1String("warning") ? QStringLiteral("#a05a00")
                                                                     : QStringLiteral("#555");
        bool number = false;
        const double us = text(row, stake).toDouble(&number);
        html += QStringLiteral("<p><b style=\"color:%1\">%2</b> <b>%3</b><br>%4<br><i>What to do:</i> %5<br>"
                               "<small>%6 · %7 at stake · kinetoscope-cli %8</small></p>")
                    .arg(colour, level, text(row, title), text(row, detail), text(row, suggestion), text(row, id),
                         number ? fmt::duration(us * 1000.0) : QStringLiteral("?"), text(row, command));
    }
    for (const std::string& note : table->notes)
        html += QStringLiteral("<p><small>Note: %1</small></p>").arg(fmt::qstr(note).toHtmlEscaped());
    return html;
}

// Each view's charts and table links under a heading (h2, or `heading` inside a rank's section);
// the files are added to `files`.
QString viewSections(const QList<ViewFiles>& written, const QString& heading, QStringList& files, const QString& folder = {})
{
    const auto link = [&](const QString& path) { return (folder.isEmpty() ? QString() : folder + QLatin1Char('/')) + QFileInfo(path).fileName(); };
    const QString tag = heading.isEmpty() ? QStringLiteral("h2") : heading;
    QString html;
    for (const ViewFiles& view : written) {
        if (view.charts.isEmpty() && view.tables.isEmpty())
            continue;
        html += QStringLiteral("<%1>%2</%1>").arg(tag, view.title.toHtmlEscaped());
        for (const QString& chart : view.charts)
            html += QStringLiteral("<img src=\"%1\" alt=\"%2\">").arg(link(chart).toHtmlEscaped(),
                                                                      view.title.toHtmlEscaped());
        if (!view.tables.isEmpty()) {
            html += QStringLiteral("<p>Tables (the CLI's columns):");
            for (const QString& table : view.tables)
                html += QStringLiteral(" <a href=\"%1\">%1</a>").arg(link(table).toHtmlEscaped());
            html += QStringLiteral("</p>");
        }
        files << view.charts << view.tables;
    }
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
    html += findingsSection(views);
    const SlowRanks slow = slowRanks(*input.run);
    html += headline(*input.run, slow);
    const Table issues = importIssuesTable(*input.run);
    html += QStringLiteral("<h2>Import issues</h2>")
        + (issues.rows.empty() ? QStringLiteral("<p>None: every file was read whole.</p>") : htmlTable(issues));
    if (!input.run->ranks.empty())
        html += QStringLiteral("<p id=\"rank%1\">Views of one rank show rank %1 here%2.</p>")
                    .arg(input.run->ranks.front().rank)
                    .arg(slow.ranksThatMatter().isEmpty() ? QString()
                                                          : QStringLiteral("; the ranks that matter have their own sections below"));
    html += viewSections(written, QString(), out.files);
    // The single-rank views again for each rank that matters (they showed the first rank above),
    // each rank's files in its own folder: rank5/idle-time-rank5.png.
    const RankIndex shownFirst{};
    for (const auto& [number, why] : slow.ranksThatMatter()) {
        const RankTrace* rank = input.run->findRank(number);
        if (!rank || input.run->indexOf(*rank) == shownFirst)
            continue;
        session.selection()->setRank(input.run->indexOf(*rank));
        clock.restart();
        while (busy() && clock.elapsed() < 600000)
            QCoreApplication::processEvents(QEventLoop::AllEvents, 20);
        QList<AnalysisView*> rankViews;  // the comparison has its own section: not repeated per rank
        for (AnalysisView* view : views)
            if (const ViewSpec* spec = findViewSpec(view->id());
                spec && (spec->follows & Follows::Ranks) && !(spec->follows & Follows::Comparison))
                rankViews << view;
        const QString folder = QStringLiteral("rank%1").arg(number);
        if (!QDir(outDir).mkpath(folder)) {
            out.error = QStringLiteral("cannot create %1").arg(QDir(outDir).filePath(folder));
            return out;
        }
        const QList<ViewFiles> perRank = exportViews(rankViews, QDir(outDir).filePath(folder), 1100, 600, true);
        html += QStringLiteral("<h2 id=\"%1\">Rank %2: %3</h2>").arg(folder).arg(number).arg(why.toHtmlEscaped());
        html += viewSections(perRank, QStringLiteral("h3"), out.files, folder);
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
