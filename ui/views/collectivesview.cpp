// Collectives matched across ranks (analysis/collectives/collectives.h): per rank, communication time split
// into waiting for the last rank and transferring; who arrives late, per rank and step; every
// collective instance with its skew and bandwidth. A click on an instance selects its kernel,
// the rank that arrived last and its time span everywhere; a bar or heat-map cell selects a rank (and a step).
// Clock skew: each rank's clock offset read from the instances' ends (clockskew.h), with a warning in
// the caption when the clocks disagree by more than the waits.

#include "views/analysisview.h"
#include "views/viewlayout.h"

#include "common/format.h"
#include "models/resulttablemodel.h"
#include "models/resulttableview.h"
#include "plots/chartview.h"
#include "plots/collectiveadapters.h"
#include "plots/plots.h"

#include "analysis/collectives/collectives.h"
#include "analysis/tables/collectivetables.h"
#include "model/trace.h"

#include <span>

#include <QLabel>
#include <QPushButton>

#include <cmath>

namespace kscope {

namespace {


QString ranksText(const std::vector<int>& ranks)
{
    QStringList parts;
    for (int r : ranks)
        parts << QString::number(r);
    return parts.join(QStringLiteral(", "));
}

class CollectivesView : public AnalysisView {
public:
    CollectivesView(const ViewSpec& spec, RunSession* session, QWidget* parent)
        : AnalysisView(spec, session, parent), m_caption(new QLabel(this)),
          m_showOnTimeline(timelineButton(tr("The chosen collective's span on the timeline, its last rank's kernel selected"), [this] {
              if (m_result && m_chosen >= 0 && size_t(m_chosen) < m_result->instances.size())
                  selectInstance(m_result->instances[size_t(m_chosen)]);
          })),
          m_bars(new ChartView(QStringLiteral("collective-wait-transfer"), this)),
          m_lateness(new ChartView(QStringLiteral("collective-lateness"), this)),
          m_instances(new ResultTableView(QStringLiteral("collectives"), this)),
          m_ranks(new ResultTableView(QStringLiteral("collective-ranks"), this)),
          m_summary(new ResultTableView(QStringLiteral("collective-summary"), this)),
          m_clocks(new ResultTableView(QStringLiteral("collective-clock-skew"), this))
    {
        makeCaption(m_caption, true);
        m_bars->setMinimumHeight(110);
        m_lateness->setMinimumHeight(110);
        setPage(this, {controlRow(this, {m_caption, m_showOnTimeline})},
                tabPages(this, {{m_bars, tr("Wait and transfer")},
                                {m_lateness, tr("Lateness")},
                                {m_instances, tr("Collectives")},
                                {m_ranks, tr("Per rank")},
                                {m_summary, tr("By size")},
                                {m_clocks, tr("Clock skew")}}));
        addCharts({m_bars, m_lateness});
        addTableViews({m_instances, m_ranks, m_summary, m_clocks});
        connect(m_bars, &ChartView::idClicked, this, &CollectivesView::clickRankId);
        connect(m_lateness, &QCustomPlot::mouseRelease, this, [this](QMouseEvent* event) {
            if (m_steps.isEmpty() || m_rankRows.isEmpty())
                return;
            const int x = int(std::lround(m_lateness->xAxis->pixelToCoord(event->position().x())));
            const int y = int(std::lround(m_lateness->yAxis->pixelToCoord(event->position().y())));
            if (x < 0 || y < 0 || x >= m_steps.size() || y >= m_rankRows.size())
                return;
            const int rank = m_rankRows[y], step = m_steps[x];
            clickRankId(rank);
            selection()->setStep(step);
        });
        // Table rows are the instances in the analysis's order.
        connect(m_instances, &ResultTableView::rowPicked, this, [this](const QModelIndex& index) {
            if (!m_result || index.row() < 0 || size_t(index.row()) >= m_result->instances.size())
                return;
            m_chosen = index.row();
            m_showOnTimeline->setEnabled(true);
            selectInstance(m_result->instances[size_t(index.row())]);
        });
        refresh();
    }

protected:
    QList<AnalysisRequest> requests() const override
    {
        return {collectivesRequest()};
    }
    Request<Collectives> collectivesRequest() const
    {
        return analysisRequest("collectives", CollectiveOptions{.htaCompat = htaCompat()}, matchCollectives);
    }

    void present(const ResultSet& results) override
    {
        m_result = results.share(collectivesRequest());
        m_chosen = -1;
        m_showOnTimeline->setEnabled(false);
        const Collectives& c = *m_result;
        const QStringList names = rankNames(slice());
        drawBars(*m_bars, collectiveWaitBars(c, names));
        markRanks(m_bars);
        const HeatMapData map = collectiveLatenessMap(c, names);
        m_steps.clear();
        m_rankRows.clear();
        for (double step : map.xKeys)
            m_steps << int(step);
        for (double rank : map.yKeys)
            m_rankRows << int(rank);
        drawHeatMap(*m_lateness, map);
        m_instances->setTable(std::make_shared<Table>(collectivesTable(slice(), c)));
        m_ranks->setTable(std::make_shared<Table>(collectiveRanksTable(c, false)));
        m_summary->setTable(std::make_shared<Table>(collectiveSummaryTable(slice(), c)));
        m_clocks->setTable(std::make_shared<Table>(clockSkewTable(slice(), c)));
        m_caption->setText(caption(c));
    }

    void showMessage(const QString& message) override
    {
        AnalysisView::showMessage(message);
        m_result.reset();
        m_steps.clear();
        m_rankRows.clear();
        m_caption->setText(message.size() < 80 ? message : QString());
    }

    QList<TableExport> currentTables() const override
    {
        return {{QStringLiteral("collectives"), collectivesTable(slice(), *m_result)},
                {QStringLiteral("collective-ranks"), collectiveRanksTable(*m_result, false)},
                {QStringLiteral("collective-summary"), collectiveSummaryTable(slice(), *m_result)},
                {QStringLiteral("collective-clock-skew"), clockSkewTable(slice(), *m_result)}};
    }

private:
    QString caption(const Collectives& c) const
    {
        if (!c.error.empty())
            return fmt::qstr(c.error);
        if (c.instances.empty())
            return c.kernels == 0 ? tr("No collective kernels in this run.") : tr("No collective matched across ranks.");
        const CollectiveStraggler& s = c.straggler;
        QString text = tr("%1 collectives in %2 process %3.")
                           .arg(c.instances.size())
                           .arg(c.groups.size())
                           .arg(c.groups.size() == 1 ? tr("group") : tr("groups"));
        if (s.rank >= 0) {
            text += QLatin1Char(' ')
                + tr("<b>Rank %1 arrived last</b> in %2 of %3, keeping the others waiting %4 per step.")
                      .arg(s.rank)
                      .arg(s.lastCount)
                      .arg(s.instances)
                      .arg(fmt::duration(s.delayPerStepNs));
            if (!s.htaRanks.empty())
                text += QLatin1Char(' ')
                    + (s.agreesWithHta ? tr("HTA's heuristic agrees (ranks %1).") : tr("HTA's heuristic says ranks %1."))
                          .arg(ranksText(s.htaRanks));
            else if (!s.htaError.empty())
                text += QLatin1Char(' ') + tr("HTA's heuristic has no answer: %1.").arg(fmt::qstr(s.htaError).toHtmlEscaped());
        } else {
            // Why no rank is named: the analysis's own notes say (partial instances, missing ranks).
            for (const std::string& note : c.notes)
                if (note.find("not in the run") != std::string::npos || note.find("partial instances") != std::string::npos)
                    text += QLatin1Char(' ') + fmt::qstr(note).toHtmlEscaped() + QLatin1Char('.');
            text += QLatin1Char(' ') + tr("No straggler is named.");
        }
        // Clocks off by more than the waits read across them: said beside the answer it undermines.
        const ClockSkew& skew = c.clockSkew;
        if (offsetExceedsWaits(skew, skew.largestOffsetNs))
            text += QLatin1Char(' ')
                + tr("<b>Clocks disagree</b> by up to %1, more than the median wait (%2): see Clock skew.")
                      .arg(fmt::duration(double(skew.largestOffsetNs)))
                      .arg(fmt::duration(double(skew.medianWaitNs)));
        return text;
    }

    void selectInstance(const CollectiveInstance& instance)
    {
        const auto shown = session()->run();
        if (!shown)
            return;
        // Its kernel, the rank that held it up, its span: not its step, which would re-slice this table.
        if (instance.kernelName)
            pickKernel(instance.kernelName.value, fmt::qstr(shown->str(instance.kernelName)));
        for (const CollectiveArrival& a : std::span(m_result->arrivals).subspan(instance.firstArrival, instance.arrivalCount))
            if (a.rank == instance.lastRank) {
                selection()->setRank(RankIndex{a.rankIndex});
                pickEvent(RankIndex{a.rankIndex}, a.kernel);
                break;
            }
        selection()->setTimeRange({instance.earliestNs - shown->minTsNs, instance.endNs - shown->minTsNs});
    }

    QLabel* m_caption;
    QPushButton* m_showOnTimeline;
    int m_chosen = -1;  // the instance picked in the table (a row of the presented result)
    ChartView* m_bars;
    ChartView* m_lateness;
    ResultTableView* m_instances;
    ResultTableView* m_ranks;
    ResultTableView* m_summary;
    ResultTableView* m_clocks;
    QList<int> m_steps, m_rankRows;  // the heat map's columns and rows
    std::shared_ptr<const Collectives> m_result;
};

} // namespace

ViewFactory collectivesView() { return createView<CollectivesView>(); }

} // namespace kscope
