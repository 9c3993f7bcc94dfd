// Findings of the shown slice (analysis/findings/findings.h): what slows the run down and what to
// do about it, trace problems first, then by the time at stake. The rules read the analyses the
// other views show, asked of the session with the same options, so each is computed once and a
// finding's numbers are the ones its evidence view shows. Picking a finding shows its evidence in
// words and its suggestion; Open evidence (or a double-click) selects its ranks and step and
// brings its view to the front; Show on timeline selects its ranks and its step's span there.

#include "views/analysisview.h"
#include "views/viewlayout.h"

#include "common/format.h"
#include "models/resulttablemodel.h"
#include "models/resulttableview.h"
#include "session/runsession.h"

#include "analysis/findings/findings.h"
#include "analysis/tables/findingstable.h"
#include "model/trace.h"

#include <QColor>
#include <QLabel>
#include <QPushButton>
#include <QTextBrowser>

namespace kscope {

namespace {

class FindingsView : public AnalysisView {
public:
    FindingsView(const ViewSpec& spec, RunSession* session, QWidget* parent)
        : AnalysisView(spec, session, parent), m_caption(new QLabel(this)),
          m_table(new ResultTableView(QStringLiteral("findings"), this)), m_detail(new QTextBrowser(this)),
          m_open(new QPushButton(tr("Open evidence"), this)),
          m_showOnTimeline(timelineButton(tr("The finding's ranks and its step (or its ranks' first step) on the timeline"),
                                          [this] { showPickedOnTimeline(); }))
    {
        makeCaption(m_caption, true);
        m_table->setWideColumn(QStringLiteral("title"));
        m_table->resultModel()->setCellStyle([](const Table& table, int row, int column, int role) -> QVariant {
            if (role != Qt::ForegroundRole || table.columns[size_t(column)] != "severity")
                return {};
            const auto* severity = std::get_if<std::string>(&table.rows[size_t(row)][size_t(column)]);
            if (!severity || *severity == "info")
                return {};
            return *severity == "critical" ? QVariant(QColor(190, 30, 30)) : QVariant(QColor(160, 90, 0));
        });
        m_detail->setOpenLinks(false);
        m_open->setEnabled(false);
        m_open->setToolTip(tr("Select the finding's ranks and step and show the view with its evidence"));
        setPage(this, {m_caption}, splitOf(this, Qt::Vertical, {m_table, stackedBox(this, {controlRow(this, {m_open, m_showOnTimeline}, true)}, m_detail)}, {3, 2}));
        addTableViews({m_table});
        connect(m_table, &ResultTableView::rowPicked, this, [this](const QModelIndex& index) { pick(index.row()); });
        connect(m_table, &QTableView::doubleClicked, this, [this](const QModelIndex&) { openEvidence(); });
        connect(m_open, &QPushButton::clicked, this, [this] { openEvidence(); });
        refresh();
    }

protected:
    QList<AnalysisRequest> requests() const override
    {
        const FindingsInputOptions o = inputOptions();
        return {healthRequest(),
                analysisRequest("temporal", o.temporal, temporalBreakdown),
                analysisRequest("idle", o.idle, idleTimeBreakdown),
                analysisRequest("idle-causes", o.idleCauses, idleCauses),
                analysisRequest("overlap", o.overlap, commCompOverlap),
                analysisRequest("queue", o.queue, queueLength),
                analysisRequest("launch", o.launch, kernelLaunchStats),
                stepsRequest(),
                analysisRequest("collectives", o.collectives, matchCollectives),
                syncsRequest(),
                analysisRequest("memory", o.memory, memoryTimeline),
                analysisRequest("critical-path-of-each-rank", o.criticalPath, criticalPathOfEachRank),
                analysisRequest("patterns", o.patterns, frequentKernelSequences),
                tensorCoresRequest()};
    }

    void present(const ResultSet& results) override
    {
        const FindingsInputOptions o = inputOptions();
        FindingsInputs in;
        in.health = results.share(healthRequest());
        in.temporal = results.share(analysisRequest("temporal", o.temporal, temporalBreakdown));
        in.idle = results.share(analysisRequest("idle", o.idle, idleTimeBreakdown));
        in.idleCauses = results.share(analysisRequest("idle-causes", o.idleCauses, idleCauses));
        in.overlap = results.share(analysisRequest("overlap", o.overlap, commCompOverlap));
        in.queue = results.share(analysisRequest("queue", o.queue, queueLength));
        in.launch = results.share(analysisRequest("launch", o.launch, kernelLaunchStats));
        in.steps = results.share(stepsRequest());
        in.collectives = results.share(analysisRequest("collectives", o.collectives, matchCollectives));
        in.syncs = results.share(syncsRequest());
        in.memory = results.share(analysisRequest("memory", o.memory, memoryTimeline));
        in.criticalPaths = results.share(analysisRequest("critical-path-of-each-rank", o.criticalPath, criticalPathOfEachRank));
        in.patterns = results.share(analysisRequest("patterns", o.patterns, frequentKernelSequences));
        in.tensorCores = results.share(tensorCoresRequest());
        in.strings = &slice().strings;  // the slice the results were computed on
        // Evaluating the rules is cheap (a pass over the results); the analyses are the session's.
        m_findings = std::make_shared<const Findings>(evaluateFindings(in));
        const Findings& f = *m_findings;
        int counts[3] = {};
        for (const Finding& finding : f.findings)
            ++counts[int(finding.severity)];
        m_caption->setText(!f.error.empty() ? tr("No result: %1").arg(fmt::qstr(f.error))
                           : f.findings.empty()
                               ? tr("No finding on %1: no rule's threshold is reached (README \"Findings\").")
                                     .arg(fmt::count(f.ranks, "rank", "ranks"))
                               : tr("%1 on %2: %3 critical, %4 warning, %5 info; trace problems first, then the "
                                    "most time at stake. Pick one for its evidence and what to do.")
                                     .arg(fmt::count(qint64(f.findings.size()), "finding", "findings"))
                                     .arg(fmt::count(f.ranks, "rank", "ranks"))
                                     .arg(counts[2])
                                     .arg(counts[1])
                                     .arg(counts[0]));
        m_table->setTable(std::make_shared<Table>(shownTable(f)));
        m_picked = -1;
        m_open->setEnabled(false);
        m_showOnTimeline->setEnabled(false);
        m_detail->setHtml(f.notes.empty() ? QString() : notesHtml(f));
        if (!f.findings.empty())  // the first (most at stake) explained from the start
            m_table->setCurrentIndex(m_table->model()->index(0, 0));
    }

    void showMessage(const QString& message) override
    {
        AnalysisView::showMessage(message);
        m_findings.reset();
        m_picked = -1;
        m_open->setEnabled(false);
        m_showOnTimeline->setEnabled(false);
        m_caption->setText(message);
        m_detail->clear();
    }

    QList<TableExport> currentTables() const override
    {
        if (!m_findings)
            return {};
        return {{QStringLiteral("findings"), findingsTable(*m_findings)}};
    }

private:
    // The options of the other views' defaults (the Critical path view's first step, the Memory
    // view's devices), so that what both show is computed once.
    FindingsInputOptions inputOptions() const
    {
        const bool hasSteps = std::any_of(slice().ranks.begin(), slice().ranks.end(),
                                          [](const RankTrace& r) { return !r.steps.empty(); });
        return findingsInputOptions(htaCompat(), hasSteps);
    }
    Request<std::vector<KernelTensorCoreRow>> tensorCoresRequest() const
    {
        return analysisRequest("kernel-tensor-cores", NoOptions{},
                               [](const Run& run, NoOptions) { return kernelTensorCores(run); });
    }
    Request<ProfilerSteps> stepsRequest() const
    {
        return analysisRequest("steps", NoOptions{}, [](const Run& run, NoOptions) { return profilerSteps(run); });
    }
    Request<HostSyncs> syncsRequest() const
    {
        return analysisRequest("host-syncs", NoOptions{}, [](const Run& run, NoOptions) { return hostSyncs(run); });
    }

    // What the table shows: what a reader scans (the export has every column).
    static Table shownTable(const Findings& f)
    {
        Table table;
        table.columns = {"severity", "title", "ranks", "steps", micros("time_at_stake (us)"), "view"};
        for (const Finding& finding : f.findings)
            table.addRow({std::string(toString(finding.severity)), finding.title, numberRanges(finding.ranks),
                          numberRanges(finding.steps), finding.timeAtStakeUs, finding.view});
        return table;
    }

    static QString notesHtml(const Findings& f)
    {
        QString html = QStringLiteral("<p><b>%1</b></p><ul>").arg(tr("Notes"));
        for (const std::string& note : f.notes)
            html += QStringLiteral("<li>%1</li>").arg(fmt::qstr(note).toHtmlEscaped());
        return html + QStringLiteral("</ul>");
    }

    void pick(int row)
    {
        if (!m_findings || row < 0 || size_t(row) >= m_findings->findings.size())
            return;
        m_picked = row;
        const Finding& f = m_findings->findings[size_t(row)];
        QString html = QStringLiteral("<p><b>%1</b> <i>(%2, %3)</i></p><p>%4</p><p><b>%5</b> %6</p>")
                           .arg(fmt::qstr(f.title).toHtmlEscaped(), fmt::qstr(toString(f.severity)),
                                fmt::qstr(f.id).toHtmlEscaped(), fmt::qstr(f.detail).toHtmlEscaped(), tr("What to do:"),
                                fmt::qstr(f.suggestion).toHtmlEscaped());
        html += QStringLiteral("<table cellspacing=\"0\" cellpadding=\"2\"><tr><th align=\"left\">%1</th>"
                               "<th align=\"right\">%2</th><th align=\"left\">%3</th><th align=\"left\">%4</th></tr>")
                    .arg(tr("evidence"), tr("value"), tr("unit"), tr("from"));
        for (const FindingEvidence& e : f.evidence)
            html += QStringLiteral("<tr><td>%1</td><td align=\"right\">%2</td><td>%3</td><td>%4%5</td></tr>")
                        .arg(fmt::qstr(e.name), QString::number(e.value, 'g', 8), fmt::qstr(e.unit), fmt::qstr(e.source),
                             e.rank >= 0 ? tr(" (rank %1)").arg(e.rank) : QString());
        html += QStringLiteral("</table><p>%1</p>")
                    .arg(tr("Shown by the %1 view; kinetoscope-cli %2.").arg(fmt::qstr(f.view), fmt::qstr(f.command)));
        if (!m_findings->notes.empty())
            html += notesHtml(*m_findings);
        m_detail->setHtml(html);
        m_open->setEnabled(findViewSpec(fmt::qstr(f.view)) != nullptr);
        m_showOnTimeline->setEnabled(true);
    }

    // The finding's ranks (their first files, in the finding's order) selected.
    void selectRanksOf(const Finding& f)
    {
        QList<RankIndex> ranks;
        for (int number : f.ranks)
            for (const RankTrace& r : slice().ranks)
                if (r.rank == number) {
                    ranks.push_back(slice().indexOf(r));
                    break;
                }
        if (!ranks.isEmpty())
            selection()->setRanks(ranks);
    }

    // Its ranks and its window (the span of its step) selected; the button then raises the timeline.
    void showPickedOnTimeline()
    {
        if (!m_findings || m_picked < 0 || !session()->slice())
            return;
        const Finding f = m_findings->findings[size_t(m_picked)];
        selectRanksOf(f);
        if (f.windowEndNs > f.windowStartNs)
            selection()->setTimeRange({qint64(f.windowStartNs - slice().minTsNs), qint64(f.windowEndNs - slice().minTsNs)});
    }

    // The session's selection set to what the finding concerns, then its view raised: the ranks
    // (their first files, in the finding's order) and its one step, when it names one.
    void openEvidence()
    {
        if (!m_findings || m_picked < 0 || !session()->slice())
            return;
        const Finding f = m_findings->findings[size_t(m_picked)];  // a step change re-presents this view
        selectRanksOf(f);
        if (f.steps.size() == 1 && f.rule == "slow_step")
            selection()->setStep(f.steps.front());
        showInView(fmt::qstr(f.view));
    }

    QLabel* m_caption;
    ResultTableView* m_table;
    QTextBrowser* m_detail;
    QPushButton* m_open;
    QPushButton* m_showOnTimeline;
    std::shared_ptr<const Findings> m_findings;
    int m_picked = -1;
};

} // namespace

ViewFactory findingsView() { return createView<FindingsView>(); }

} // namespace kscope
