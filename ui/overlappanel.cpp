#include "overlappanel.h"

#include "baradapters.h"
#include "chartview.h"
#include "csvtables.h"
#include "plots.h"
#include "selectionmodel.h"

#include "analysis/overlap.h"

#include <QVBoxLayout>

namespace kscope {

OverlapPanel::OverlapPanel(SelectionModel* selection, QWidget* parent)
    : Panel(tr("Overlap"), selection, parent), m_chart(new ChartView(QStringLiteral("comm-comp-overlap"), this))
{
    registerSlot(&m_job);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(m_chart, 1);
    connect(m_chart, &ChartView::idClicked, selection, &SelectionModel::clickRank);
    connect(selection, &SelectionModel::ranksChanged, this,
            [this] { m_chart->setHighlightedIds(m_selection->ranks()); });
    redraw();
}

void OverlapPanel::setRun(std::shared_ptr<const Run> run)
{
    m_run = run;
    m_result.reset();
    if (!run) {
        invalidateJobs();
        redraw();
        return;
    }
    startJob(m_job, [run] { return std::make_shared<const Overlap>(commCompOverlap(*run, {.htaCompat = run->htaCompat})); },
             [this](std::shared_ptr<const Overlap> result) {
                 m_result = std::move(result);
                 redraw();
             });
}

void OverlapPanel::redraw()
{
    BarChartData data = m_result ? overlapBars(*m_result) : BarChartData{};
    if (!m_result)
        data.message = m_run ? tr("Computing…") : tr("No run loaded");
    drawBars(*m_chart, data);
    m_chart->setHighlightedIds(m_selection->ranks());
}

QList<ChartView*> OverlapPanel::charts() const { return {m_chart}; }

QList<Panel::TableExport> OverlapPanel::tables() const
{
    if (!m_result)
        return {};
    auto result = m_result;
    return {{QStringLiteral("overlap"), [result] { return overlapTable(*result); }}};
}

} // namespace kscope
