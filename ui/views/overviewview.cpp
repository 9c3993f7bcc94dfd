// What was loaded (ranks, devices, steps, span, events, streams, size) and the temporal
// breakdown as a table; clicking a row selects its rank.

#include "views/analysisview.h"
#include "views/viewlayout.h"

#include "common/format.h"
#include "models/modelroles.h"
#include "models/resulttablemodel.h"
#include "models/resulttableview.h"

#include "analysis/tables/resulttables.h"
#include "model/trace.h"
#include "analysis/core/runsummary.h"
#include "analysis/core/temporalbreakdown.h"

#include <QLabel>
#include <QLocale>

namespace kscope {

Request<TemporalBreakdown> temporalRequest(bool htaCompat);  // temporalview.cpp: one computation for both views

namespace {

Request<RunSummary> summaryRequest()
{
    return analysisRequest("summary", NoOptions{}, [](const Run& run, NoOptions) { return summarizeRun(run); });
}

QString stepsText(const std::vector<int>& steps)
{
    if (steps.empty())
        return QObject::tr("none (no ProfilerStep)");
    if (steps.size() == 1)
        return QObject::tr("1 (#%1)").arg(steps.front());
    return QObject::tr("%1 (#%2 – #%3)").arg(steps.size()).arg(steps.front()).arg(steps.back());
}

class OverviewView : public AnalysisView {
public:
    OverviewView(const ViewSpec& spec, RunSession* session, QWidget* parent)
        : AnalysisView(spec, session, parent), m_summary(new QLabel(this)),
          m_table(new ResultTableView(QStringLiteral("temporal"), this))
    {
        m_summary->setTextFormat(Qt::RichText);
        m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
        // Never squeezed below its text: the table under it scrolls instead.
        m_summary->setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Minimum);
        m_table->sortByColumn(0, Qt::AscendingOrder);
        setPage(this, {m_summary, new QLabel(tr("<b>Temporal breakdown</b> (GPU time per rank)"), this)}, m_table);
        addTableViews({m_table});
        // Each row's id is its rank trace (two files may claim one rank number).
        connect(m_table, &QTableView::clicked, this,
                [this](const QModelIndex& index) { clickRank(RankIndex{index.data(kIdRole).toUInt()}); });
        refresh();
    }

protected:
    QList<AnalysisRequest> requests() const override
    {
        return {summaryRequest(), temporalRequest(htaCompat())};
    }

    void present(const ResultSet& results) override
    {
        showSummary(results.get(summaryRequest()));
        const TemporalBreakdown& temporal = results.get(temporalRequest(htaCompat()));
        QVector<quint32> ids;
        for (const TemporalBreakdownRow& row : temporal.rows)
            ids << row.rankIndex.value;
        m_table->setTable(std::make_shared<Table>(temporalTable(temporal)), ids);
    }

    void showMessage(const QString& message) override
    {
        AnalysisView::showMessage(message);
        m_summary->setText(message.toHtmlEscaped());
    }

private:
    void showSummary(const RunSummary& s)
    {
        QStringList devices;
        for (const std::string& d : s.devices)
            devices << fmt::qstr(d);
        const QLocale c = QLocale::c();
        const auto cell = [](const QString& key, const QString& value) {
            return QStringLiteral("<td style='padding-right:8px'><b>%1</b></td><td style='padding-right:18px'>%2</td>")
                .arg(key, value.toHtmlEscaped());
        };
        const auto run = session()->run();
        const QString folder = fmt::qstr(run->folder.filename().string());
        QString html = QStringLiteral("<table>");
        html += QStringLiteral("<tr>") + cell(tr("Run"), folder.isEmpty() ? fmt::qstr(run->folder.string()) : folder)
            + cell(tr("Mode"), run->htaCompat ? tr("HTA-compatible") : tr("exact (ns)")) + QStringLiteral("</tr>");
        html += QStringLiteral("<tr>") + cell(tr("Ranks"), QString::number(s.ranks))
            + cell(tr("Devices"), devices.isEmpty() ? tr("unknown") : devices.join(QStringLiteral(", "))) + QStringLiteral("</tr>");
        html += QStringLiteral("<tr>") + cell(selection()->step() >= 0 ? tr("Step") : tr("Steps"), stepsText(s.steps))
            + cell(tr("Span"), tr("%1 (at %2 – %3)")
                                   .arg(fmt::duration(double(s.lastNs - s.firstNs)),
                                        fmt::duration(double(s.firstNs - run->minTsNs)),
                                        fmt::duration(double(s.lastNs - run->minTsNs))))
            + QStringLiteral("</tr>");
        html += QStringLiteral("<tr>") + cell(tr("Events"), tr("%1 (%2 on GPU)").arg(c.toString(qulonglong(s.events)),
                                                                                  c.toString(qulonglong(s.gpuEvents))))
            + cell(tr("Streams"), tr("%1 (≤ %2 per rank)").arg(s.streams).arg(s.maxStreamsPerRank)) + QStringLiteral("</tr>");
        html += QStringLiteral("<tr>") + cell(tr("Trace size"), fmt::bytes(s.compressedBytes));
        // HTA's trimming of the last step: what every answer lacks (the tooltip says the rest).
        if (s.eventsTrimmed > 0)
            html += cell(tr("Left out"), tr("last step, %1 events").arg(c.toString(qulonglong(s.eventsTrimmed))));
        html += QStringLiteral("</tr>");
        html += QStringLiteral("</table>");
        m_summary->setText(html);
        QString tip = fmt::qstr(run->folder.string());
        tip += tr("\nEvery time in every view counts from the run's first event (as HTA's min_ts), %1 ns.")
                   .arg(run->minTsNs);
        if (s.eventsTrimmed > 0)
            tip += tr("\nThe last ProfilerStep and what follows it are left out, as HTA trims them: %1 events, %2 of "
                      "them kernels, memcpys and memsets, %3 [memory] events.")
                       .arg(s.eventsTrimmed)
                       .arg(s.gpuEventsTrimmed)
                       .arg(s.memoryEventsTrimmed);
        m_summary->setToolTip(tip);
    }

    QLabel* m_summary;
    ResultTableView* m_table;
};

} // namespace

ViewFactory overviewView() { return createView<OverviewView>(); }

} // namespace kscope
