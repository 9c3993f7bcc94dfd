// Trace health of the shown slice (analysis/core/tracehealth.h): per rank, what makes answers
// unreliable, with a count, an example and the analyses it degrades. Every other view names the
// problems that touch it on a warning line that links here. A click on a row selects its rank.

#include "views/analysisview.h"
#include "views/viewlayout.h"

#include "common/format.h"
#include "models/resulttablemodel.h"
#include "models/resulttableview.h"

#include "analysis/core/tracehealth.h"
#include "analysis/tables/healthtable.h"

#include <QColor>
#include <QLabel>

namespace kscope {

namespace {

class HealthView : public AnalysisView {
public:
    HealthView(const ViewSpec& spec, RunSession* session, QWidget* parent)
        : AnalysisView(spec, session, parent), m_caption(new QLabel(this)),
          m_table(new ResultTableView(QStringLiteral("trace-health"), this))
    {
        makeCaption(m_caption, true);
        m_table->setWideColumn(QStringLiteral("example"));
        m_table->resultModel()->setCellStyle([](const Table& table, int row, int column, int role) -> QVariant {
            if (role != Qt::ForegroundRole || table.columns[size_t(column)] != "severity")
                return {};
            const auto* severity = std::get_if<std::string>(&table.rows[size_t(row)][size_t(column)]);
            if (!severity || *severity == "info")
                return {};
            return *severity == "error" ? QVariant(QColor(190, 30, 30)) : QVariant(QColor(160, 90, 0));
        });
        setPage(this, {m_caption}, m_table);
        addTableViews({m_table});
        connect(m_table, &ResultTableView::rowPicked, this, [this](const QModelIndex& index) {
            const Table* table = m_table->resultModel()->table();
            if (table && index.row() >= 0 && size_t(index.row()) < table->rowRanks.size())
                clickRank(table->rowRanks[size_t(index.row())]);
        });
        refresh();
    }

protected:
    QList<AnalysisRequest> requests() const override { return {healthRequest()}; }

    void present(const ResultSet& results) override
    {
        m_health = results.share(healthRequest());
        const TraceHealth& health = *m_health;
        const QString ranks = fmt::count(health.ranksChecked, "rank", "ranks");
        m_caption->setText(!health.error.empty() ? tr("No result: %1").arg(fmt::qstr(health.error))
                           : health.problems.empty()
                               ? tr("No problem found on %1: every check passed.").arg(ranks)
                               : tr("%1 on %2 of %3 (errors and warnings; infos say where an analysis falls back). "
                                    "Click a row to select its rank.")
                                     .arg(fmt::count(qint64(health.problems.size()), "problem", "problems"))
                                     .arg(health.ranksWithProblems)
                                     .arg(ranks));
        m_table->setTable(std::make_shared<Table>(healthTable(health)));
    }

    void showMessage(const QString& message) override
    {
        AnalysisView::showMessage(message);
        m_health.reset();
        m_caption->setText(message);
    }

    QList<TableExport> currentTables() const override
    {
        return {{QStringLiteral("trace-health"), healthTable(*m_health)}};
    }

private:
    QLabel* m_caption;
    ResultTableView* m_table;
    std::shared_ptr<const TraceHealth> m_health;
};

} // namespace

ViewFactory healthView() { return createView<HealthView>(); }

} // namespace kscope
