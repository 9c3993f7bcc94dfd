// Import issues of the run: files that could not be read (with byte offset and reason), bad
// events per rank, warnings and skipped files. Double-click selects the row's rank.

#include "views/analysisview.h"
#include "views/viewlayout.h"

#include "common/format.h"

#include "models/modelroles.h"
#include "models/resulttablemodel.h"
#include "models/resulttableview.h"

#include "analysis/tables/resulttables.h"
#include "model/trace.h"

#include <QColor>
#include <QHeaderView>
#include <QLabel>

#include <algorithm>

namespace kscope {

namespace {

class IssuesView : public AnalysisView {
public:
    IssuesView(const ViewSpec& spec, RunSession* session, QWidget* parent)
        : AnalysisView(spec, session, parent), m_caption(new QLabel(this)),
          m_table(new ResultTableView(QStringLiteral("import-issues"), this))
    {
        makeCaption(m_caption, true);
        m_table->setWideColumn(QStringLiteral("message"));
        m_table->resultModel()->setCellStyle([](const Table& table, int row, int column, int role) -> QVariant {
            if (role != Qt::ForegroundRole || table.columns[size_t(column)] != "severity")
                return {};
            const auto* severity = std::get_if<std::string>(&table.rows[size_t(row)][size_t(column)]);
            return severity && *severity == "error" ? QVariant(QColor(190, 30, 30)) : QVariant();
        });
        setPage(this, {m_caption}, m_table);
        connect(m_table, &QTableView::doubleClicked, this, [this](const QModelIndex& index) {
            // The issue's file is the rank trace (two files may claim its number).
            const auto run = this->session()->run();
            const QString file = index.siblingAtColumn(1).data(Qt::DisplayRole).toString();
            if (run)
                for (const RankTrace& r : run->ranks)
                    if (fmt::qstr(r.file.filename().string()) == file || fmt::qstr(r.file.string()) == file) {
                        clickRank(run->indexOf(r));
                        break;
                    }
        });
        refresh();
    }

protected:
    QList<AnalysisRequest> requests() const override { return {}; }  // the run's own lists, no analysis

    void present(const ResultSet&) override { showIssues(); }

    void showMessage(const QString& message) override
    {
        AnalysisView::showMessage(message);
        showIssues();  // a run without ranks: its issues say why
    }

private:
    QLabel* m_caption;
    // Import issues describe whole runs, whatever step is shown; with a comparison open, both
    // runs' issues, told apart by a leading "run" column.
    void showIssues()
    {
        const auto control = session()->controlRun();
        if (!control)
            return;
        Table table = importIssuesTable(*control);
        if (const auto test = session()->testRun()) {
            const Table testIssues = importIssuesTable(*test);
            table.columns.insert(table.columns.begin(), "run");
            for (auto& row : table.rows)
                row.insert(row.begin(), Cell{session()->label(RunSide::Control).toStdString()});
            for (auto row : testIssues.rows) {
                row.insert(row.begin(), Cell{session()->label(RunSide::Test).toStdString()});
                table.rows.push_back(std::move(row));
            }
        }
        // What a reader looks for first: the message, then where (the CLI's columns keep their order).
        const size_t errors = size_t(std::count_if(table.rows.begin(), table.rows.end(), [&table](const std::vector<Cell>& row) {
            const auto at = std::find(table.columns.begin(), table.columns.end(), "severity") - table.columns.begin();
            const auto* severity = std::get_if<std::string>(&row[size_t(at)]);
            return severity && *severity == "error";
        }));
        const size_t rows = table.rows.size();
        m_caption->setText(rows == 0    ? tr("No import issues: every file was read completely.")
                           : errors > 0 ? tr("%1 import issues, %2 of them errors (a file or events that could not be read). "
                                             "Double-click a row to select its rank.").arg(rows).arg(errors)
                                        : tr("%1 import issues, none an error: warnings and skipped files. "
                                             "Double-click a row to select its rank.").arg(rows));
        m_table->setTable(std::make_shared<Table>(std::move(table)));
        QHeaderView* header = m_table->horizontalHeader();
        const int message = m_table->resultModel()->columnOf(QStringLiteral("message"));
        const int severity = m_table->resultModel()->columnOf(QStringLiteral("severity"));
        if (message >= 0 && severity >= 0 && header->visualIndex(message) != header->visualIndex(severity) + 1)
            header->moveSection(header->visualIndex(message), header->visualIndex(severity) + 1);
    }

protected:

    bool hasTablesWithoutResult() const override { return true; }

    QList<TableExport> currentTables() const override
    {
        const Table* table = m_table->resultModel()->table();
        if (!table || table->rows.empty())
            return {};
        return {{QStringLiteral("import-issues"), *table}};
    }

private:
    ResultTableView* m_table;
};

} // namespace

ViewFactory issuesView() { return createView<IssuesView>(); }

} // namespace kscope
