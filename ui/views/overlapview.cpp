// Communication overlapped by computation, one bar per rank (HTA's get_comm_comp_overlap).

#include "views/analysisview.h"
#include "views/viewlayout.h"

#include "plots/baradapters.h"
#include "plots/chartview.h"
#include "plots/plots.h"

#include "analysis/core/overlap.h"
#include "analysis/tables/resulttables.h"
#include "model/trace.h"


namespace kscope {

namespace {

class OverlapView : public AnalysisView {
public:
    OverlapView(const ViewSpec& spec, RunSession* session, QWidget* parent)
        : AnalysisView(spec, session, parent), m_chart(new ChartView(QStringLiteral("comm-comp-overlap"), this))
    {
        setPage(this, {}, m_chart);
        addCharts({m_chart});
        connect(m_chart, &ChartView::idClicked, this, &OverlapView::clickRankId);
        refresh();
    }

protected:
    QList<AnalysisRequest> requests() const override
    {
        return {overlapRequest(), stragglersRequest()};
    }
    Request<Overlap> overlapRequest() const
    {
        return analysisRequest("overlap", OverlapOptions{.htaCompat = htaCompat()}, commCompOverlap);
    }

    void present(const ResultSet& results) override
    {
        m_result = results.share(overlapRequest());
        drawRankBars(m_chart, overlapBars(*m_result, rankNames(slice())), results);
    }

    void highlightSelection() override { m_chart->setHighlightedIds(rankChartIds(selection()->ranks())); }

    void showMessage(const QString& message) override
    {
        AnalysisView::showMessage(message);
        m_result.reset();
    }

    QList<TableExport> currentTables() const override { return {{QStringLiteral("overlap"), overlapTable(*m_result)}}; }

private:
    ChartView* m_chart;
    std::shared_ptr<const Overlap> m_result;
};

} // namespace

ViewFactory overlapView() { return createView<OverlapView>(); }

} // namespace kscope
