#include "temporalpanel.h"

#include "baradapters.h"
#include "chartview.h"
#include "csvtables.h"
#include "plots.h"
#include "selectionmodel.h"

#include "analysis/temporalbreakdown.h"

#include <QCheckBox>
#include <QVBoxLayout>

namespace kscope {

TemporalPanel::TemporalPanel(SelectionModel* selection, QWidget* parent)
    : Panel(tr("Temporal breakdown"), selection, parent),
      m_chart(new ChartView(QStringLiteral("temporal-breakdown"), this)),
      m_percent(new QCheckBox(tr("Percent of GPU span"), this))
{
    registerSlot(&m_job);
    m_percent->setChecked(true);
    m_percent->setToolTip(tr("Off: absolute microseconds per rank"));
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(m_percent);
    layout->addWidget(m_chart, 1);
    connect(m_percent, &QCheckBox::toggled, this, &TemporalPanel::redraw);
    connect(m_chart, &ChartView::idClicked, selection, &SelectionModel::clickRank);
    connect(selection, &SelectionModel::ranksChanged, this,
            [this] { m_chart->setHighlightedIds(m_selection->ranks()); });
    redraw();
}

void TemporalPanel::setRun(std::shared_ptr<const Run> run)
{
    m_run = run;
    m_result.reset();
    if (!run) {
        invalidateJobs();
        redraw();
        return;
    }
    startJob(m_job, [run] { return std::make_shared<const TemporalBreakdown>(temporalBreakdown(*run, {.htaCompat = run->htaCompat})); },
             [this](std::shared_ptr<const TemporalBreakdown> result) {
                 m_result = std::move(result);
                 redraw();
             });
}

void TemporalPanel::redraw()
{
    BarChartData data = m_result ? temporalBars(*m_result, m_percent->isChecked()) : BarChartData{};
    if (!m_result)
        data.message = m_run ? tr("Computing…") : tr("No run loaded");
    drawBars(*m_chart, data);
    m_chart->setHighlightedIds(m_selection->ranks());
}

QList<ChartView*> TemporalPanel::charts() const { return {m_chart}; }

QList<Panel::TableExport> TemporalPanel::tables() const
{
    if (!m_result)
        return {};
    auto result = m_result;
    return {{QStringLiteral("temporal"), [result] { return temporalTable(*result); }}};
}

} // namespace kscope
