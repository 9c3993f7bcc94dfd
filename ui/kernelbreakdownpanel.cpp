#include "kernelbreakdownpanel.h"

#include "baradapters.h"
#include "chartview.h"
#include "csvtables.h"
#include "kernelfiltermodel.h"
#include "kerneltablemodel.h"
#include "modelroles.h"
#include "plots.h"
#include "selectionmodel.h"

#include "analysis/kernelbreakdown.h"

#include <QCheckBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLineEdit>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>

namespace kscope {

KernelBreakdownPanel::KernelBreakdownPanel(SelectionModel* selection, QWidget* parent)
    : Panel(tr("Kernel breakdown"), selection, parent),
      m_chart(new ChartView(QStringLiteral("kernel-types"), this)), m_search(new QLineEdit(this)),
      m_rankOnly(new QCheckBox(tr("Selected ranks only"), this)), m_table(new QTableView(this)),
      m_model(new KernelTableModel(this)), m_filter(new KernelFilterModel(this))
{
    registerSlot(&m_job);
    m_search->setPlaceholderText(tr("Search kernels…"));
    m_search->setClearButtonEnabled(true);
    m_rankOnly->setChecked(true);
    m_rankOnly->setToolTip(tr("Show the top kernels of the ranks selected in a chart (Ctrl+click adds ranks) or the toolbar"));
    m_filter->setSourceModel(m_model);
    m_table->setModel(m_filter);
    m_table->setSortingEnabled(true);
    m_table->sortByColumn(KernelTableModel::Sum, Qt::DescendingOrder);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->setAlternatingRowColors(true);
    m_table->setWordWrap(false);
    m_table->setTextElideMode(Qt::ElideMiddle);
    m_table->verticalHeader()->hide();
    m_table->verticalHeader()->setDefaultSectionSize(20);
    QHeaderView* header = m_table->horizontalHeader();
    header->setSectionResizeMode(QHeaderView::ResizeToContents);
    header->setSectionResizeMode(KernelTableModel::Name, QHeaderView::Stretch);

    auto* tableBox = new QWidget(this);
    auto* filterRow = new QHBoxLayout;
    filterRow->addWidget(m_search, 1);
    filterRow->addWidget(m_rankOnly);
    auto* tableLayout = new QVBoxLayout(tableBox);
    tableLayout->setContentsMargins(0, 0, 0, 0);
    tableLayout->addLayout(filterRow);
    tableLayout->addWidget(m_table, 1);

    auto* splitter = new QSplitter(Qt::Vertical, this);
    splitter->addWidget(m_chart);
    splitter->addWidget(tableBox);
    splitter->setStretchFactor(0, 2);
    splitter->setStretchFactor(1, 3);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(splitter);

    connect(m_search, &QLineEdit::textChanged, m_filter, &QSortFilterProxyModel::setFilterFixedString);
    connect(m_rankOnly, &QCheckBox::toggled, this, &KernelBreakdownPanel::followRank);
    connect(selection, &SelectionModel::ranksChanged, this, &KernelBreakdownPanel::followRank);
    connect(m_table->selectionModel(), &QItemSelectionModel::currentRowChanged, this, [this](const QModelIndex& index) {
        const quint32 id = index.data(kIdRole).toUInt();
        if (id != 0)  // "others" rows stand for many kernels
            m_selection->setKernel(id, index.siblingAtColumn(0).data(Qt::ToolTipRole).toString());
    });
    addCsvMenu(m_table, QStringLiteral("kernels"), [this] {
        return m_result && m_run ? kernelsTable(*m_run, *m_result) : Table{};
    });
    redraw();
}

void KernelBreakdownPanel::setRun(std::shared_ptr<const Run> run)
{
    m_run = run;
    m_result.reset();
    m_model->setResult(nullptr, nullptr);
    if (!run) {
        invalidateJobs();
        redraw();
        return;
    }
    redraw();
    startJob(m_job, [run] { return std::make_shared<const KernelBreakdown>(kernelBreakdown(*run, {.htaCompat = run->htaCompat})); },
             [this](std::shared_ptr<const KernelBreakdown> result) {
                 m_result = result;
                 m_model->setResult(m_run, std::move(result));
                 redraw();
             });
}

void KernelBreakdownPanel::followRank()
{
    m_filter->setRankFilter(m_rankOnly->isChecked() ? m_selection->ranks() : QList<int>{});
}

void KernelBreakdownPanel::redraw()
{
    BarChartData data = m_result ? kernelTypeBars(*m_result) : BarChartData{};
    if (!m_result)
        data.message = m_run ? tr("Computing…") : tr("No run loaded");
    drawBars(*m_chart, data);
    followRank();
}

QList<ChartView*> KernelBreakdownPanel::charts() const { return {m_chart}; }

QList<Panel::TableExport> KernelBreakdownPanel::tables() const
{
    if (!m_result || !m_run)
        return {};
    auto result = m_result;
    auto run = m_run;
    return {{QStringLiteral("kernel-types"), [result] { return kernelTypesTable(*result); }},
            {QStringLiteral("kernels"), [run, result] { return kernelsTable(*run, *result); }}};
}

} // namespace kscope
