// Kernel duration distributions: the most imbalanced kernels (slowest / fastest median rank) and
// a box plot per rank of the kernel picked here or anywhere else.

#include "views/analysisview.h"
#include "views/viewlayout.h"

#include "common/format.h"
#include "models/modelroles.h"
#include "models/resulttablemodel.h"
#include "models/resulttableview.h"
#include "plots/chartview.h"
#include "plots/plots.h"
#include "plots/statsadapters.h"

#include "analysis/core/kerneldistribution.h"
#include "analysis/tables/resulttables.h"
#include "analysis/core/kernelnames.h"
#include "model/trace.h"

#include <QLabel>

namespace kscope {

namespace {


const KernelDistribution* findKernel(const KernelDistributions& result, quint32 kernel)
{
    for (const KernelDistribution& k : result.kernels)
        if (k.name.value == kernel)
            return &k;
    return nullptr;
}

class KernelDistView : public AnalysisView {
public:
    KernelDistView(const ViewSpec& spec, RunSession* session, QWidget* parent)
        : AnalysisView(spec, session, parent), m_caption(new QLabel(this)),
          m_list(new ResultTableView(QStringLiteral("kernel-imbalance"), this)),
          m_chart(new ChartView(QStringLiteral("kernel-distribution"), this))
    {
        makeCaption(m_caption, true);
        m_list->setNameColumn(QStringLiteral("name"));
        m_list->resultModel()->setHiddenColumns({QStringLiteral("kernel_type")});
        setPage(this, {}, splitOf(this, Qt::Horizontal, {stackedBox(this, {m_caption}, m_list), m_chart}, {2, 3}));
        addCharts({m_chart});
        addTableViews({m_list});  // a message clears it: no other run's kernels to click
        connect(m_list, &ResultTableView::rowPicked, this, [this](const QModelIndex& index) {
            if (index.data(kIdRole).toUInt() != shownKernel())
                pickKernel(index.data(kIdRole).toUInt(), index.siblingAtColumn(0).data(kFilterRole).toString());
        });
        connect(m_chart, &ChartView::idClicked, this, &KernelDistView::clickRankId);
        refresh();
    }

    quint32 shownKernel() const { return isCurrent() ? m_shownKernel : 0; }

protected:
    // The kernel to show: the one selected, else the most imbalanced (worth a first look).
    quint32 wantedKernel(const KernelDistributions* top) const
    {
        if (selection()->kernel() != 0)
            return selection()->kernel();
        return top && !top->kernels.empty() ? top->kernels.front().name.value : 0;
    }

    static Request<KernelDistributions> topRequest()
    {
        return analysisRequest("kernel-dist", KernelDistributionOptions{}, kernelDistributions);
    }
    static Request<KernelDistributions> singleRequest(quint32 kernel)
    {
        return analysisRequest("kernel-dist", KernelDistributionOptions{.kernel = StringId{kernel}, .top = 0},
                               kernelDistributions);
    }

    QList<AnalysisRequest> requests() const override
    {
        QList<AnalysisRequest> wanted{topRequest()};
        // Second step, once the top list is there: a kernel outside it is asked for by its id.
        const auto top = session()->cached(topRequest());
        const quint32 kernel = wantedKernel(top.get());
        if (top && kernel != 0 && !findKernel(*top, kernel))
            wanted.push_back(singleRequest(kernel));
        return wanted;
    }

    void present(const ResultSet& results) override
    {
        const auto top = results.share(topRequest());
        if (top != m_top) {
            m_top = top;
            m_list->setTable(std::make_shared<Table>(imbalanceTable(*top)), kernelIds(*top));
            m_list->sortByColumn(m_list->resultModel()->columnOf(QStringLiteral("spread")), Qt::DescendingOrder);
        }
        const int ranks = int(slice().ranks.size());
        m_caption->setText(ranks > 1 ? tr("<b>Most imbalanced kernels</b> (spread: slowest / fastest median rank)")
                                     : tr("<b>Kernels</b> — one rank: imbalance across ranks needs two or more"));
        const quint32 kernel = wantedKernel(top.get());
        const KernelDistributions* source = findKernel(*top, kernel) ? top.get() : nullptr;
        if (!source && kernel != 0)
            source = &results.get(singleRequest(kernel));
        const KernelDistribution* k = source ? findKernel(*source, kernel) : nullptr;
        m_shownKernel = k ? kernel : 0;
        if (!k) {
            drawBoxes(*m_chart, {.message = top->kernels.empty() ? (top->error.empty() ? tr("No kernels") : fmt::qstr(top->error))
                                                                 : tr("The selected kernel did not run in this step")});
        } else {
            // The title is the name the list shows (short, told apart from its neighbours), not
            // the full name with its middle cut out.
            const int listRow = m_list->resultModel()->rowOfId(kernel);
            const int nameColumn = m_list->resultModel()->columnOf(QStringLiteral("name"));
            const QString shortName = listRow >= 0 && nameColumn >= 0
                ? m_list->resultModel()->index(listRow, nameColumn).data().toString()
                : fmt::qstr(distinctShortNames({slice().str(k->name)}).front());
            BoxChartData data = kernelBoxes(*k, shortName, rankNames(slice()));
            data.footnote = failedRanksNote();
            drawBoxes(*m_chart, data);
            markRanks(m_chart);
        }
        const int row = m_list->resultModel()->rowOfId(m_shownKernel);
        const QModelIndex index = row >= 0 ? m_list->proxy()->mapFromSource(m_list->resultModel()->index(row, 0)) : QModelIndex();
        if (index != m_list->currentIndex()) {
            const QSignalBlocker blocker(m_list->selectionModel());
            m_list->setCurrentIndex(index);
        }
        highlightSelection();
    }

    void showMessage(const QString& message) override
    {
        AnalysisView::showMessage(message);
        m_top.reset();
        m_caption->clear();
    }

    void highlightSelection() override { m_chart->setHighlightedIds(rankChartIds(selection()->ranks())); }

    QList<TableExport> currentTables() const override
    {
        return {{QStringLiteral("kernel-distribution"), kernelDistributionTable(slice(), *m_top), QStringLiteral("name")}};
    }

private:
    // One row per kernel: what the list shows; the per-rank rows are in the exported table.
    Table imbalanceTable(const KernelDistributions& result) const
    {
        Table table;
        table.columns = {"name", "kernel_type", "spread", micros("total (us)"), "ranks"};
        const bool oneRank = slice().ranks.size() < 2;
        for (const KernelDistribution& k : result.kernels)
            table.addRow({std::string(slice().str(k.name)), std::string(toString(k.type)),
                          oneRank ? Cell{} : Cell{k.spread}, microsCell(k.totalNs), int64_t(k.ranks.size())});
        return table;
    }

    static QVector<quint32> kernelIds(const KernelDistributions& result)
    {
        QVector<quint32> ids;
        for (const KernelDistribution& k : result.kernels)
            ids.push_back(k.name.value);
        return ids;
    }

    QLabel* m_caption;
    ResultTableView* m_list;
    ChartView* m_chart;
    std::shared_ptr<const KernelDistributions> m_top;
    quint32 m_shownKernel = 0;
};

} // namespace

ViewFactory kernelDistributionView() { return createView<KernelDistView>(); }

} // namespace kscope
