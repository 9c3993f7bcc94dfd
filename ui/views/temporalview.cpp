// Temporal breakdown: stacked bars per rank (idle / compute / non-compute), percent or absolute.

#include "views/analysisview.h"
#include "views/viewlayout.h"

#include "plots/baradapters.h"
#include "plots/chartview.h"
#include "plots/plots.h"

#include "analysis/tables/resulttables.h"
#include "model/trace.h"
#include "analysis/core/temporalbreakdown.h"

#include <QCheckBox>

namespace kscope {

// Shared with the overview, which shows the same result as a table: one key, one computation.
Request<TemporalBreakdown> temporalRequest(bool htaCompat)
{
    return analysisRequest("temporal", TemporalOptions{.htaCompat = htaCompat}, temporalBreakdown);
}

namespace {

class TemporalView : public AnalysisView {
public:
    TemporalView(const ViewSpec& spec, RunSession* session, QWidget* parent)
        : AnalysisView(spec, session, parent), m_chart(new ChartView(QStringLiteral("temporal-breakdown"), this)),
          m_percent(new QCheckBox(tr("Percent of GPU span"), this))
    {
        m_percent->setChecked(boolOption(QStringLiteral("percent"), true));
        m_percent->setToolTip(tr("Off: absolute time per rank"));
        setPage(this, {m_percent}, m_chart);
        addCharts({m_chart});
        connect(m_percent, &QCheckBox::toggled, this, [this](bool on) { setOption(QStringLiteral("percent"), on); });
        connect(m_chart, &ChartView::idClicked, this, &TemporalView::clickRankId);
        refresh();
    }

protected:
    QList<AnalysisRequest> requests() const override { return {temporalRequest(htaCompat()), stragglersRequest()}; }

    void present(const ResultSet& results) override
    {
        m_result = results.share(temporalRequest(htaCompat()));
        const bool percent = boolOption(QStringLiteral("percent"), true);
        const QSignalBlocker blocker(m_percent);  // the option may have been set elsewhere
        m_percent->setChecked(percent);
        drawRankBars(m_chart, temporalBars(*m_result, rankNames(slice()), percent), results);
    }

    void highlightSelection() override { m_chart->setHighlightedIds(rankChartIds(selection()->ranks())); }

    void showMessage(const QString& message) override
    {
        AnalysisView::showMessage(message);
        m_result.reset();
    }

    QList<TableExport> currentTables() const override { return {{QStringLiteral("temporal"), temporalTable(*m_result)}}; }

private:
    ChartView* m_chart;
    QCheckBox* m_percent;
    std::shared_ptr<const TemporalBreakdown> m_result;  // what is on screen, from the session
};

} // namespace

ViewFactory temporalView() { return createView<TemporalView>(); }

} // namespace kscope
