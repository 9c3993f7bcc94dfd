// Time per PyTorch operator on the selected rank (the TensorBoard profiler's Operator view):
// calls, host and device time with and without child ops, Tensor Core shares, grouped by name,
// input shapes or call stack. A click on an op lists the kernels it launched; a click on one of
// them selects that kernel in the kernel views.

#include "views/analysisview.h"
#include "views/viewlayout.h"

#include "common/format.h"
#include "models/modelroles.h"
#include "models/resulttablemodel.h"
#include "models/resulttableview.h"

#include "analysis/operators/operatorkernels.h"
#include "analysis/operators/operators.h"
#include "analysis/tables/operatortables.h"
#include "model/trace.h"

#include <QCheckBox>
#include <QComboBox>
#include <QLabel>

namespace kscope {

namespace {

const QString kGroupBy = QStringLiteral("groupBy");          // "name", "shape", "stack"
const QString kAnnotations = QStringLiteral("annotations");  // user annotations count as ops

OpGroupBy groupByFrom(const QString& text)
{
    return text == QLatin1String("shape") ? OpGroupBy::Shape : text == QLatin1String("stack") ? OpGroupBy::Stack : OpGroupBy::Name;
}

class OperatorsView : public AnalysisView {
public:
    OperatorsView(const ViewSpec& spec, RunSession* session, QWidget* parent)
        : AnalysisView(spec, session, parent), m_caption(new QLabel(this)), m_groupBy(new QComboBox(this)),
          m_annotations(new QCheckBox(tr("Annotations"), this)), m_kernelsTitle(new QLabel(this)),
          m_ops(new ResultTableView(QStringLiteral("operators"), this)),
          m_kernels(new ResultTableView(QStringLiteral("operator-kernels"), this))
    {
        makeCaption(m_caption, true);
        m_groupBy->addItem(tr("By name"), QStringLiteral("name"));
        m_groupBy->addItem(tr("By input shape"), QStringLiteral("shape"));
        m_groupBy->addItem(tr("By call stack"), QStringLiteral("stack"));
        m_groupBy->setToolTip(tr("Input shapes need a trace recorded with record_shapes=True"));
        m_annotations->setToolTip(tr("Count user annotations (record_function, ProfilerStep#N) as operators too"));
        m_ops->setNameColumn(QStringLiteral("name"));
        m_kernels->setNameColumn(QStringLiteral("name"));
        // One rank and one op at a time: the title says which (the exported CSV keeps the columns).
        m_ops->resultModel()->setHiddenColumns({QStringLiteral("rank")});
        m_kernels->resultModel()->setHiddenColumns({QStringLiteral("rank"), QStringLiteral("operator")});
        makeCaption(m_kernelsTitle, false);
        // Two tables stacked must not make the bottom dock taller than a small screen allows.
        m_ops->setMinimumHeight(48);
        m_kernels->setMinimumHeight(32);
        setPage(this, {controlRow(this, {m_caption, m_groupBy, m_annotations})},
                splitOf(this, Qt::Vertical, {m_ops, stackedBox(this, {m_kernelsTitle}, m_kernels)}, {3, 2}));
        addTableViews({m_ops, m_kernels});
        connect(m_groupBy, &QComboBox::activated, this, [this] { setOption(kGroupBy, m_groupBy->currentData()); });
        connect(m_annotations, &QCheckBox::toggled, this, [this](bool on) { setOption(kAnnotations, on); });
        connect(m_ops, &ResultTableView::rowPicked, this, [this](const QModelIndex& index) {
            const quint32 id = index.data(kIdRole).toUInt();
            if (id != 0 && id != operatorId())  // 0: the folded "others" row
                selection()->setOp(fmt::qstr(this->session()->run()->str(StringId{id})));
        });
        connect(m_kernels, &ResultTableView::rowPicked, this, [this](const QModelIndex& index) {
            const quint32 id = index.data(kIdRole).toUInt();
            if (id != 0)
                pickKernel(id, fmt::qstr(this->session()->run()->str(StringId{id})));
        });
        refresh();
    }

protected:
    OperatorOptions options() const
    {
        OperatorOptions o;
        o.groupBy = groupByFrom(option(kGroupBy, QStringLiteral("name")));
        o.includeAnnotations = boolOption(kAnnotations, false);
        o.ranks = {shownRank()};
        return o;
    }

    // The op whose kernels are listed: the one picked, if the run has it.
    quint32 operatorId() const
    {
        const auto shown = session()->run();
        const QString name = selection()->op();
        return shown && !name.isEmpty() ? shown->strings.find(name.toStdString()).value : 0;
    }

    Request<Operators> operatorsRequest() const { return analysisRequest("operators", options(), operatorStats); }
    Request<OperatorKernels> kernelsRequest() const
    {
        return analysisRequest("operator-kernels",
                               OperatorKernelsOptions{.rank = shownRank(), .op = StringId{operatorId()},
                                                      .includeAnnotations = options().includeAnnotations},
                               operatorKernels);
    }

    QList<AnalysisRequest> requests() const override
    {
        QList<AnalysisRequest> list{operatorsRequest()};
        if (operatorId() != 0)
            list << kernelsRequest();
        return list;
    }

    void present(const ResultSet& results) override
    {
        m_result = results.share(operatorsRequest());
        const OperatorOptions o = options();
        {
            const QSignalBlocker a(m_groupBy), b(m_annotations);
            m_groupBy->setCurrentIndex(int(o.groupBy));
            m_annotations->setChecked(o.includeAnnotations);
        }
        QVector<quint32> opIds;
        for (const OperatorRow& row : m_result->rows)
            opIds << (row.foldedRows > 0 ? 0u : row.name.value);
        m_ops->setTable(std::make_shared<Table>(operatorsTable(slice(), *m_result)), opIds);
        m_opKernels.reset();
        if (operatorId() != 0) {
            m_opKernels = results.share(kernelsRequest());
            QVector<quint32> kernelIds;
            for (const OperatorKernelRow& row : m_opKernels->rows)
                kernelIds << row.name.value;
            m_kernels->setTable(std::make_shared<Table>(operatorKernelsTable(slice(), *m_opKernels)), kernelIds);
            m_kernelsTitle->setText(tr("<b>GPU work launched inside %1</b> (%2); click one to follow it in the kernel views")
                                        .arg(fmt::elided(selection()->op(), 60).toHtmlEscaped(),
                                             fmt::count(m_opKernels->opCalls, "call", "calls")));
        } else {
            m_kernels->setTable(nullptr);
            m_kernelsTitle->setText(tr("Click an operator to list the GPU work it launched"));
        }
        m_caption->setText(caption());
    }

    void showMessage(const QString& message) override
    {
        AnalysisView::showMessage(message);
        m_result.reset();
        m_opKernels.reset();
        m_kernelsTitle->clear();
        m_caption->setText(message.size() < 80 ? message : QString());
    }

    QList<TableExport> currentTables() const override
    {
        const QString rank = shownRankTag();
        QList<TableExport> tables{{QStringLiteral("operators-%1").arg(rank), operatorsTable(slice(), *m_result)}};
        if (m_opKernels)
            tables.push_back({QStringLiteral("operator-kernels-%1").arg(rank), operatorKernelsTable(slice(), *m_opKernels)});
        return tables;
    }

private:
    QString caption() const
    {
        if (!m_result->error.empty())
            return fmt::qstr(m_result->error);
        QString text = tr("Rank %1: %2.").arg(shownRankName()).arg(fmt::count(qint64(m_result->rows.size()), "operator", "operators"));
        for (const TensorCoreShare& s : m_result->tensorCores)
            if (s.kernelNs > 0)
                text += QLatin1Char(' ')
                    + tr("Tensor Cores: %1 of GPU kernel time (%2 of %3 kernels).")
                          .arg(fmt::percent(100.0 * double(s.tensorCoreNs) / double(s.kernelNs), 1))
                          .arg(s.tensorCoreKernels)
                          .arg(s.kernels);
        if (m_opKernels && !m_opKernels->error.empty())
            text += QLatin1Char(' ') + fmt::qstr(m_opKernels->error);
        return text;
    }

    QLabel* m_caption;
    QComboBox* m_groupBy;
    QCheckBox* m_annotations;
    QLabel* m_kernelsTitle;
    ResultTableView* m_ops;
    ResultTableView* m_kernels;
    std::shared_ptr<const Operators> m_result;
    std::shared_ptr<const OperatorKernels> m_opKernels;
};

} // namespace

ViewFactory operatorsView() { return createView<OperatorsView>(); }

} // namespace kscope
