#include "overviewpanel.h"

#include "csvtables.h"
#include "format.h"
#include "modelroles.h"
#include "selectionmodel.h"
#include "temporaltablemodel.h"

#include "analysis/runsummary.h"
#include "analysis/temporalbreakdown.h"

#include <QHeaderView>
#include <QLabel>
#include <QLocale>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QVBoxLayout>

namespace kscope {

namespace {

QString stepsText(const std::vector<int>& steps)
{
    if (steps.empty())
        return QObject::tr("none (no ProfilerStep)");
    if (steps.size() == 1)
        return QString::number(steps.front());
    return QObject::tr("%1 (%2 – %3)").arg(steps.size()).arg(steps.front()).arg(steps.back());
}

} // namespace

OverviewPanel::OverviewPanel(SelectionModel* selection, QWidget* parent)
    : Panel(tr("Overview"), selection, parent), m_summary(new QLabel(this)), m_table(new QTableView(this)),
      m_model(new TemporalTableModel(this))
{
    registerSlot(&m_summaryJob);
    registerSlot(&m_temporalJob);
    m_summary->setTextFormat(Qt::RichText);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_summary->setWordWrap(true);
    auto* proxy = new QSortFilterProxyModel(this);
    proxy->setSourceModel(m_model);
    proxy->setSortRole(kSortRole);
    m_table->setModel(proxy);
    m_table->setSortingEnabled(true);
    m_table->sortByColumn(0, Qt::AscendingOrder);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->verticalHeader()->hide();
    m_table->verticalHeader()->setDefaultSectionSize(20);
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_table->setAlternatingRowColors(true);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(6, 6, 6, 6);
    layout->addWidget(m_summary);
    auto* caption = new QLabel(tr("<b>Temporal breakdown</b> (GPU time per rank)"), this);
    layout->addWidget(caption);
    layout->addWidget(m_table, 1);
    connect(m_table, &QTableView::clicked, this,
            [this](const QModelIndex& index) { m_selection->setRank(index.data(kRankRole).toInt()); });
    addCsvMenu(m_table, QStringLiteral("temporal"), [this] {
        return m_temporal ? temporalTable(*m_temporal) : Table{};
    });
    showSummary(nullptr);
}

void OverviewPanel::setRun(std::shared_ptr<const Run> run)
{
    m_run = run;
    m_temporal.reset();
    m_model->setResult(nullptr);
    showSummary(nullptr);
    if (!run) {
        invalidateJobs();
        return;
    }
    startJob(m_summaryJob, [run] { return std::make_shared<const RunSummary>(summarizeRun(*run)); },
             [this](std::shared_ptr<const RunSummary> summary) { showSummary(summary.get()); });
    startJob(m_temporalJob, [run] { return std::make_shared<const TemporalBreakdown>(temporalBreakdown(*run, {.htaCompat = run->htaCompat})); },
             [this](std::shared_ptr<const TemporalBreakdown> result) {
                 m_temporal = result;
                 m_model->setResult(std::move(result));
             });
}

void OverviewPanel::showSummary(const RunSummary* s)
{
    if (!m_run) {
        m_summary->setText(tr("No run loaded. Use <b>File ▸ Open Run Folder</b> or drop a folder here."));
        return;
    }
    if (!s) {
        m_summary->setText(tr("Summarising…"));
        return;
    }
    QStringList devices;
    for (const std::string& d : s->devices)
        devices << fmt::qstr(d);
    const QLocale c = QLocale::c();
    // Two facts per line: the table below needs the height more than the labels.
    const auto cell = [](const QString& key, const QString& value) {
        return QStringLiteral("<td style='padding-right:8px'><b>%1</b></td><td style='padding-right:18px'>%2</td>")
            .arg(key, value.toHtmlEscaped());
    };
    QString html = QStringLiteral("<table>");
    html += QStringLiteral("<tr>") + cell(tr("Run"), fmt::qstr(m_run->folder.string()))
        + QStringLiteral("<td></td><td></td></tr>");
    html += QStringLiteral("<tr>") + cell(tr("Ranks"), QString::number(s->ranks))
        + cell(tr("Devices"), devices.isEmpty() ? tr("unknown") : devices.join(QStringLiteral(", "))) + QStringLiteral("</tr>");
    html += QStringLiteral("<tr>") + cell(tr("Steps"), stepsText(s->steps))
        + cell(tr("Span"), fmt::duration(double(s->lastNs - s->firstNs))) + QStringLiteral("</tr>");
    html += QStringLiteral("<tr>") + cell(tr("Events"), tr("%1 (%2 on GPU)").arg(c.toString(qulonglong(s->events)),
                                                                              c.toString(qulonglong(s->gpuEvents))))
        + cell(tr("Streams"), tr("%1 (≤ %2 per rank)").arg(s->streams).arg(s->maxStreamsPerRank)) + QStringLiteral("</tr>");
    html += QStringLiteral("<tr>") + cell(tr("Trace size"), fmt::bytes(s->compressedBytes)) + QStringLiteral("</tr>");
    html += QStringLiteral("</table>");
    m_summary->setText(html);
}

QList<Panel::TableExport> OverviewPanel::tables() const { return {}; }  // the temporal panel exports it

} // namespace kscope
