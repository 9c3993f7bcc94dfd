#include "kerneldistpanel.h"

#include "chartview.h"
#include "csvtables.h"
#include "format.h"
#include "imbalancemodel.h"
#include "modelroles.h"
#include "plots.h"
#include "selectionmodel.h"
#include "statsadapters.h"

#include "analysis/kerneldistribution.h"

#include <QHeaderView>
#include <QLabel>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>

namespace kscope {

namespace {

const KernelDistribution* findKernel(const KernelDistributions& result, quint32 kernel)
{
    for (const KernelDistribution& k : result.kernels)
        if (k.name.value == kernel)
            return &k;
    return nullptr;
}

} // namespace

KernelDistPanel::KernelDistPanel(SelectionModel* selection, QWidget* parent)
    : Panel(tr("Kernel distribution"), selection, parent),
      m_chart(new ChartView(QStringLiteral("kernel-distribution"), this)), m_list(new QTableView(this)),
      m_model(new ImbalanceModel(this))
{
    registerSlot(&m_topJob);
    registerSlot(&m_kernelJob);
    auto* proxy = new QSortFilterProxyModel(this);
    proxy->setSourceModel(m_model);
    proxy->setSortRole(kSortRole);
    m_list->setModel(proxy);
    m_list->setSortingEnabled(true);
    m_list->sortByColumn(ImbalanceModel::Spread, Qt::DescendingOrder);
    m_list->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_list->setSelectionMode(QAbstractItemView::SingleSelection);
    m_list->setWordWrap(false);
    m_list->setAlternatingRowColors(true);
    m_list->verticalHeader()->hide();
    m_list->verticalHeader()->setDefaultSectionSize(20);
    m_list->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_list->horizontalHeader()->setSectionResizeMode(ImbalanceModel::Name, QHeaderView::Stretch);

    auto* listBox = new QWidget(this);
    auto* listLayout = new QVBoxLayout(listBox);
    listLayout->setContentsMargins(0, 0, 0, 0);
    auto* caption = new QLabel(tr("<b>Most imbalanced kernels</b> (slowest / fastest median rank)"), listBox);
    caption->setWordWrap(true);
    listLayout->addWidget(caption);
    listLayout->addWidget(m_list, 1);

    auto* splitter = new QSplitter(Qt::Horizontal, this);
    splitter->addWidget(listBox);
    splitter->addWidget(m_chart);
    splitter->setStretchFactor(0, 2);
    splitter->setStretchFactor(1, 3);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(splitter);

    connect(m_list->selectionModel(), &QItemSelectionModel::currentRowChanged, this, [this](const QModelIndex& index) {
        if (index.isValid())
            m_selection->setKernel(index.data(kIdRole).toUInt(), index.siblingAtColumn(0).data(kSortRole).toString());
    });
    connect(selection, &SelectionModel::kernelChanged, this, &KernelDistPanel::showSelectedKernel);
    connect(m_chart, &ChartView::idClicked, selection, &SelectionModel::clickRank);
    connect(selection, &SelectionModel::ranksChanged, this,
            [this] { m_chart->setHighlightedIds(m_selection->ranks()); });
    addCsvMenu(m_list, QStringLiteral("kernel-distribution"), [this] {
        return m_top && m_run ? kernelDistributionTable(*m_run, *m_top) : Table{};
    });
    drawBoxes(*m_chart, {.message = tr("No run loaded")});
}

void KernelDistPanel::setRun(std::shared_ptr<const Run> run)
{
    m_run = run;
    m_top.reset();
    m_shownKernel = 0;
    m_model->setResult(nullptr, nullptr);
    invalidateJobs();
    if (!run) {
        drawBoxes(*m_chart, {.message = tr("No run loaded")});
        return;
    }
    drawBoxes(*m_chart, {.message = tr("Computing…")});
    startJob(m_topJob, [run] { return std::make_shared<const KernelDistributions>(kernelDistributions(*run, {})); },
             [this](std::shared_ptr<const KernelDistributions> result) {
                 m_top = result;
                 m_model->setResult(m_run, result);
                 showSelectedKernel();
             });
}

void KernelDistPanel::showSelectedKernel()
{
    if (!m_run || !m_top)
        return;
    quint32 kernel = m_selection->kernel();
    if (kernel == 0) {
        // Nothing picked yet: the most imbalanced kernel is the one worth a first look.
        if (m_top->kernels.empty()) {
            drawBoxes(*m_chart, {.message = m_top->error.empty() ? tr("No kernels") : fmt::qstr(m_top->error)});
            return;
        }
        kernel = m_top->kernels.front().name.value;
    }
    if (findKernel(*m_top, kernel)) {
        m_kernelJob.invalidate();
        drawKernel(m_top, kernel);
        return;
    }
    // Not among the heaviest kernels: ask the analysis for this one alone.
    drawBoxes(*m_chart, {.message = tr("Computing…")});
    const auto run = m_run;
    const std::string name(run->str(StringId{kernel}));
    startJob(m_kernelJob,
             [run, name] {
                 return std::make_shared<const KernelDistributions>(
                     kernelDistributions(*run, {.nameContains = name, .top = 0}));
             },
             [this, kernel](std::shared_ptr<const KernelDistributions> result) { drawKernel(result, kernel); });
}

void KernelDistPanel::drawKernel(const std::shared_ptr<const KernelDistributions>& source, quint32 kernel)
{
    const KernelDistribution* k = findKernel(*source, kernel);
    m_shownKernel = k ? kernel : 0;
    if (!k) {
        drawBoxes(*m_chart, {.message = tr("The selected kernel has no duration statistics")});
        return;
    }
    drawBoxes(*m_chart, kernelBoxes(*k, fmt::qstr(m_run->str(k->name))));
    m_chart->setHighlightedIds(m_selection->ranks());
    const int row = m_model->rowOfKernel(kernel);
    auto* proxy = static_cast<QSortFilterProxyModel*>(m_list->model());
    const QModelIndex index = row >= 0 ? proxy->mapFromSource(m_model->index(row, 0)) : QModelIndex();
    if (index != m_list->currentIndex()) {
        const QSignalBlocker blocker(m_list->selectionModel());
        m_list->setCurrentIndex(index);
    }
}

QList<ChartView*> KernelDistPanel::charts() const { return {m_chart}; }

QList<Panel::TableExport> KernelDistPanel::tables() const
{
    if (!m_top || !m_run)
        return {};
    auto top = m_top;
    auto run = m_run;
    return {{QStringLiteral("kernel-distribution"), [run, top] { return kernelDistributionTable(*run, *top); }}};
}

} // namespace kscope
