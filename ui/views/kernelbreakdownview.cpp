// HTA's GPU kernel breakdown: kernel-type shares as bars and the kernels table (top kernels per
// rank and type), with a search box and the analysis options; it follows the selected ranks,
// and a click on a row picks the kernel.

#include "views/analysisview.h"
#include "views/viewlayout.h"

#include "models/modelroles.h"
#include "models/resulttablemodel.h"
#include "models/resulttableview.h"
#include "plots/baradapters.h"
#include "plots/chartview.h"
#include "plots/plots.h"

#include "analysis/core/kernelbreakdown.h"
#include "analysis/tables/resulttables.h"
#include "model/trace.h"

#include <QCheckBox>
#include <QDoubleSpinBox>
#include <QLabel>
#include <QLineEdit>
#include <QSpinBox>

namespace kscope {

namespace {

const QString kRatio = QStringLiteral("durationRatio");
const QString kCount = QStringLiteral("numKernels");
const QString kMemory = QStringLiteral("includeMemoryKernels");

class KernelBreakdownView : public AnalysisView {
public:
    KernelBreakdownView(const ViewSpec& spec, RunSession* session, QWidget* parent)
        : AnalysisView(spec, session, parent), m_chart(new ChartView(QStringLiteral("kernel-types"), this)),
          m_search(new QLineEdit(this)), m_rankOnly(new QCheckBox(tr("Selected ranks only"), this)),
          m_ratio(new QDoubleSpinBox(this)), m_count(new QSpinBox(this)), m_memory(new QCheckBox(tr("Memory kernels"), this)),
          m_table(new ResultTableView(QStringLiteral("kernels"), this))
    {
        const KernelBreakdownOptions defaults;
        m_ratio->setRange(0.0, 1.0);
        m_ratio->setSingleStep(0.05);
        m_ratio->setDecimals(2);
        m_ratio->setValue(options().durationRatio);
        m_ratio->setToolTip(tr("Kernels past this share of each rank's running total fold into \"others\" (HTA: %1)")
                                .arg(defaults.durationRatio));
        m_count->setRange(0, 10000);
        m_count->setValue(options().numKernels);
        m_count->setToolTip(tr("At most this many kernels per rank and type before folding (HTA: %1)").arg(defaults.numKernels));
        m_memory->setChecked(options().includeMemoryKernels);
        m_memory->setToolTip(tr("Include memcpy and memset in the breakdown"));
        m_chart->setMinimumHeight(150);  // room for the type labels; the table takes the rest
        m_search->setPlaceholderText(tr("Search kernels…"));
        m_search->setMinimumWidth(120);
        m_search->setClearButtonEnabled(true);
        m_rankOnly->setChecked(true);
        m_rankOnly->setToolTip(tr("Show the top kernels of the ranks selected in a chart (Ctrl+click adds ranks) or the toolbar"));
        m_table->setNameColumn(QStringLiteral("name"));
        m_table->sortByColumn(1, Qt::DescendingOrder);

        setPage(this, {controlRow(this, {tr("Top share"), m_ratio, tr("at most"), m_count, m_memory}, true)},
                splitOf(this, Qt::Vertical,
                        {m_chart, stackedBox(this, {controlRow(this, {m_search, m_rankOnly})}, m_table)}, {2, 3}));
        addCharts({m_chart});
        addTableViews({m_table});

        connect(m_ratio, &QDoubleSpinBox::editingFinished, this, [this] { setOption(kRatio, m_ratio->value()); });
        connect(m_count, &QSpinBox::editingFinished, this, [this] { setOption(kCount, m_count->value()); });
        connect(m_memory, &QCheckBox::toggled, this, [this](bool on) { setOption(kMemory, on); });
        connect(m_search, &QLineEdit::textChanged, m_table, &ResultTableView::setSearchText);
        connect(m_rankOnly, &QCheckBox::toggled, this, &KernelBreakdownView::highlightSelection);
        connect(m_table, &ResultTableView::rowPicked, this, [this](const QModelIndex& index) {
            const quint32 id = index.data(kIdRole).toUInt();
            if (id != 0)  // "others" rows stand for many kernels
                pickKernel(id, index.siblingAtColumn(0).data(kFilterRole).toString());
        });
        refresh();
    }

    ResultTableView* table() const { return m_table; }

protected:
    KernelBreakdownOptions options() const
    {
        KernelBreakdownOptions o;
        o.durationRatio = numberOption(kRatio, o.durationRatio);
        o.numKernels = int(numberOption(kCount, o.numKernels));
        o.includeMemoryKernels = boolOption(kMemory, o.includeMemoryKernels);
        o.htaCompat = htaCompat();
        return o;
    }

    Request<KernelBreakdown> breakdownRequest() const { return analysisRequest("kernels", options(), kernelBreakdown); }

    QList<AnalysisRequest> requests() const override { return {breakdownRequest()}; }

    void present(const ResultSet& results) override
    {
        m_result = results.share(breakdownRequest());
        {
            const KernelBreakdownOptions o = options();
            const QSignalBlocker ratio(m_ratio), count(m_count), memory(m_memory);
            m_ratio->setValue(o.durationRatio);
            m_count->setValue(o.numKernels);
            m_memory->setChecked(o.includeMemoryKernels);
        }
        drawBars(*m_chart, kernelTypeBars(*m_result));
        // The kernels table with each row's launch count beside HTA's columns.
        auto table = std::make_shared<Table>(kernelsTable(slice(), *m_result));
        table->columns.push_back("count");
        QVector<quint32> ids;
        for (size_t r = 0; r < table->rows.size(); ++r) {
            table->rows[r].emplace_back(std::in_place_type<int64_t>, m_result->kernels[r].count);
            ids.push_back(m_result->kernels[r].name.value);
        }
        m_table->setTable(std::move(table), ids);
        highlightSelection();
    }

    void highlightSelection() override
    {
        m_table->setRankFilter(m_rankOnly->isChecked() ? selection()->ranks() : QList<RankIndex>{});
    }

    void showMessage(const QString& message) override
    {
        AnalysisView::showMessage(message);
        m_result.reset();
    }

    QList<TableExport> currentTables() const override
    {
        return {{QStringLiteral("kernel-types"), kernelTypesTable(*m_result)},
                {QStringLiteral("kernels"), kernelsTable(slice(), *m_result)}};
    }

private:
    ChartView* m_chart;
    QLineEdit* m_search;
    QCheckBox* m_rankOnly;
    QDoubleSpinBox* m_ratio;
    QSpinBox* m_count;
    QCheckBox* m_memory;
    ResultTableView* m_table;
    std::shared_ptr<const KernelBreakdown> m_result;
};

} // namespace

ViewFactory kernelBreakdownView() { return createView<KernelBreakdownView>(); }

} // namespace kscope
