// Critical path (HTA's CriticalPathAnalysis, analysis/criticalpath/criticalpath.h): for the analysed window
// (an annotation's instance, by default the first ProfilerStep of what is shown), what bounds the
// path of each rank, one stacked bar per rank; the selected rank's path segment by segment (a
// click selects that event's span, and its kernel); the path across ranks, linked at collectives.

#include "views/analysisview.h"
#include "views/viewlayout.h"

#include "common/format.h"
#include "models/resulttablemodel.h"
#include "models/resulttableview.h"
#include "plots/chartview.h"
#include "plots/criticalpathadapters.h"
#include "plots/plots.h"

#include "analysis/criticalpath/criticalpath.h"
#include "analysis/tables/criticalpathtables.h"
#include "model/trace.h"

#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>

namespace kscope {

namespace {

const QString kAnnotation = QStringLiteral("annotation");  // "" = the first ProfilerStep
const QString kInstance = QStringLiteral("instance");

class CriticalPathView : public AnalysisView {
public:
    CriticalPathView(const ViewSpec& spec, RunSession* session, QWidget* parent)
        : AnalysisView(spec, session, parent), m_caption(new QLabel(this)), m_annotation(new QLineEdit(this)),
          m_instance(new QSpinBox(this)), m_showOnTimeline(timelineButton(tr("The chosen segment on the timeline (else the analysed window)"), [this] {
              const auto shown = this->session()->run();
              if (!m_path || !shown || !m_path->error.empty())
                  return;
              if (m_chosen >= 0 && size_t(m_chosen) < m_path->segments.size())
                  selectSegment(m_path->segments[size_t(m_chosen)]);
              else
                  selection()->setTimeRange({qint64(m_path->windowStartNs - shown->minTsNs), qint64(m_path->windowEndNs - shown->minTsNs)});
          })),
          m_bars(new ChartView(QStringLiteral("critical-path-bounds"), this)),
          m_breakdown(new ResultTableView(QStringLiteral("critical-path-breakdown"), this)),
          m_summary(new ResultTableView(QStringLiteral("critical-path-summary"), this)),
          m_shares(new ResultTableView(QStringLiteral("critical-path-ranks"), this)),
          m_crossPath(new ResultTableView(QStringLiteral("critical-path-across-ranks"), this))
    {
        makeCaption(m_caption, true);
        m_annotation->setPlaceholderText(tr("ProfilerStep#"));
        m_annotation->setToolTip(tr("The window: events whose name contains this (HTA's annotation); empty = ProfilerStep#"));
        m_annotation->setMaximumWidth(180);
        m_instance->setRange(0, 1000000);
        m_instance->setToolTip(tr("Which instance of the annotation, from 0 (HTA's instance_id)"));
        m_bars->setMinimumHeight(110);
        m_breakdown->setNameColumn(QStringLiteral("s_name"));
        m_showOnTimeline->setEnabled(true);  // the analysed window, when no segment is chosen
        setPage(this, {controlRow(this, {m_caption, tr("Window:"), m_annotation, tr("#"), m_instance, m_showOnTimeline})},
                tabPages(this, {{m_bars, tr("Bound by, per rank")},
                                {m_breakdown, tr("Path of the rank")},
                                {m_summary, tr("Summary")},
                                {m_shares, tr("Across ranks")},
                                {m_crossPath, tr("Cross-rank path")}}));
        addCharts({m_bars});
        addTableViews({m_breakdown, m_summary, m_shares, m_crossPath});
        connect(m_bars, &ChartView::idClicked, this, &CriticalPathView::clickRankId);
        connect(m_annotation, &QLineEdit::editingFinished, this, [this] { setOption(kAnnotation, m_annotation->text()); });
        connect(m_instance, &QSpinBox::editingFinished, this, [this] { setOption(kInstance, m_instance->value()); });
        // Rows are the path's segments in path order.
        connect(m_breakdown, &ResultTableView::rowPicked, this, [this](const QModelIndex& index) {
            if (m_path && index.row() >= 0 && size_t(index.row()) < m_path->segments.size()) {
                m_chosen = index.row();
                selectSegment(m_path->segments[size_t(index.row())]);
            }
        });
        refresh();
    }

protected:
    CriticalPathOptions options() const
    {
        CriticalPathOptions o;
        const QString annotation = option(kAnnotation, QString());
        if (!annotation.isEmpty())
            o.annotation = annotation.toStdString();
        else if (!hasProfilerSteps())
            o.annotation = std::string();  // no step to bound the window: the whole trace
        o.instanceStart = o.instanceEnd = int(numberOption(kInstance, 0));
        o.rank = shownRank();
        o.htaCompat = htaCompat();
        return o;
    }

    Request<CriticalPath> pathRequest() const { return analysisRequest("critical-path", options(), criticalPath); }
    // Every rank's path in the same window: the options without a rank.
    CriticalPathOptions windowOptions() const
    {
        CriticalPathOptions o = options();
        o.rank.reset();
        return o;
    }
    Request<RankPathSummaries> summariesRequest() const
    {
        // The bars: every rank's own path, kept while another rank is selected.
        return analysisRequest("critical-path-of-each-rank", windowOptions(), criticalPathOfEachRank);
    }
    Request<CrossRankPath> crossRequest() const
    {
        return analysisRequest("critical-path-across-ranks", windowOptions(), criticalPathAllRanks);
    }

    QList<AnalysisRequest> requests() const override { return {pathRequest(), summariesRequest(), crossRequest()}; }

    void present(const ResultSet& results) override
    {
        m_path = results.share(pathRequest());
        m_chosen = -1;
        m_summaries = results.share(summariesRequest());
        m_cross = results.share(crossRequest());
        {
            const QSignalBlocker a(m_annotation), b(m_instance);
            m_annotation->setText(option(kAnnotation, QString()));
            m_instance->setValue(int(numberOption(kInstance, 0)));
        }
        BarChartData bars = criticalPathBoundBars(*m_summaries, rankNames(slice()));
        if (bars.keys.isEmpty())
            bars.message = m_path->error.empty() ? tr("No rank has a critical path in this window")
                                                 : tr("No critical path: %1").arg(fmt::qstr(m_path->error));
        drawBars(*m_bars, bars);
        markRanks(m_bars);
        const CriticalPath& shown = *m_path;
        m_breakdown->setTable(std::make_shared<Table>(criticalPathBreakdownTable(slice(), shown)));
        m_summary->setTable(std::make_shared<Table>(criticalPathSummaryTable(shown)));
        m_shares->setTable(std::make_shared<Table>(crossRankSharesTable(*m_cross)));
        m_crossPath->setTable(std::make_shared<Table>(crossRankPathTable(slice(), *m_cross)));
        m_caption->setText(caption());
    }

    void showMessage(const QString& message) override
    {
        AnalysisView::showMessage(message);
        m_path.reset();
        m_summaries.reset();
        m_cross.reset();
        m_caption->setText(message.size() < 80 ? message : QString());
    }

    QList<TableExport> currentTables() const override
    {
        const QString rank = shownRankTag();
        return {{QStringLiteral("critical-path-summary-%1").arg(rank), criticalPathSummaryTable(*m_path)},
                {QStringLiteral("critical-path-breakdown-%1").arg(rank), criticalPathBreakdownTable(slice(), *m_path)},
                {QStringLiteral("critical-path-ranks"), crossRankSharesTable(*m_cross)},
                {QStringLiteral("critical-path-across-ranks"), crossRankPathTable(slice(), *m_cross)}};
    }

private:
    bool hasProfilerSteps() const
    {
        for (const RankTrace& rank : slice().ranks)
            if (!rank.steps.empty())
                return true;
        return false;
    }

    // Every note the CLI prints with the path (no cuda_sync events, launches without an edge, ...).
    QString notesText() const
    {
        QStringList notes;
        for (const std::string& note : m_path->notes)
            notes << fmt::qstr(note).toHtmlEscaped();
        if (m_cross)
            for (const std::string& note : m_cross->notes)
                if (!notes.contains(fmt::qstr(note).toHtmlEscaped()))
                    notes << tr("across ranks: %1").arg(fmt::qstr(note).toHtmlEscaped());
        return notes.isEmpty() ? QString()
                               : QStringLiteral("<br><span style='color:#7a5a00'>⚠ %1</span>").arg(notes.join(QStringLiteral("; ")));
    }

    QString caption() const
    {
        const CriticalPath& p = *m_path;
        if (!p.error.empty())
            return tr("Rank %1: %2").arg(shownRankName().toHtmlEscaped(), fmt::qstr(p.error).toHtmlEscaped()) + notesText();
        // The window by the event that bounds it (the chosen step's own ProfilerStep#N), not the
        // pattern typed.
        QString window;
        if (p.annotation.empty())
            window = hasProfilerSteps() ? tr("the whole trace") : tr("the whole trace (the run has no ProfilerStep)");
        else if (p.options.instanceEnd > p.options.instanceStart)
            window = tr("<b>%1</b> (instances %2-%3 of '%4')")
                         .arg(fmt::elided(fmt::qstr(p.windowName), 40).toHtmlEscaped())
                         .arg(p.options.instanceStart)
                         .arg(p.options.instanceEnd)
                         .arg(fmt::qstr(p.annotation).toHtmlEscaped());
        else
            window = tr("<b>%1</b>").arg(fmt::elided(fmt::qstr(p.windowName), 40).toHtmlEscaped());
        QString text = tr("Rank %1, %2: path of %3 in a window of %4")
                           .arg(shownRankName().toHtmlEscaped(), window, fmt::duration(double(p.lengthNs)),
                                fmt::duration(double(p.windowEndNs - p.windowStartNs)));
        const CpSummaryRow* top = nullptr;
        for (const CpSummaryRow& row : p.summary)
            if (row.bound != CpBound::None && (!top || row.percent > top->percent))
                top = &row;
        if (top)
            text += tr(", mostly %1 (%2)").arg(fmt::qstr(toString(top->bound)).replace(QLatin1Char('_'), QLatin1Char(' ')),
                                                fmt::percent(top->percent));
        if (m_cross && m_cross->error.empty() && !m_cross->shares.empty()) {
            const CrossRankShare* most = &m_cross->shares.front();
            for (const CrossRankShare& s : m_cross->shares)
                if (s.durationNs > most->durationNs)
                    most = &s;
            text += tr(". Across ranks the path spends %1 on rank %2").arg(fmt::percent(most->percent)).arg(most->rank);
        }
        return text + QLatin1Char('.') + notesText();
    }

    void selectSegment(const CpSegment& segment)
    {
        const auto shown = session()->run();
        const RankTrace* rank = slice().has(m_path->rankIndex) ? &slice().at(m_path->rankIndex) : nullptr;
        if (!shown || !rank || segment.event == kNoEvent || size_t(segment.event) >= rank->events.size())
            return;
        const EventTable& t = rank->events;
        if (t.kind[segment.event] == EventKind::Kernel || t.kind[segment.event] == EventKind::Memcpy
            || t.kind[segment.event] == EventKind::Memset)
            pickKernel(t.name[segment.event].value, fmt::qstr(shown->str(t.name[segment.event])));
        pickEvent(m_path->rankIndex, segment.event);
        selection()->setTimeRange({t.tsNs[segment.event] - shown->minTsNs, t.endNs(segment.event) - shown->minTsNs});
    }

    QLabel* m_caption;
    QLineEdit* m_annotation;
    QSpinBox* m_instance;
    QPushButton* m_showOnTimeline;
    int m_chosen = -1;  // the segment picked in the path table
    ChartView* m_bars;
    ResultTableView* m_breakdown;
    ResultTableView* m_summary;
    ResultTableView* m_shares;
    ResultTableView* m_crossPath;
    std::shared_ptr<const CriticalPath> m_path;
    std::shared_ptr<const RankPathSummaries> m_summaries;
    std::shared_ptr<const CrossRankPath> m_cross;
};

} // namespace

ViewFactory criticalPathView() { return createView<CriticalPathView>(); }

} // namespace kscope
