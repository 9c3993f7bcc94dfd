#include "issuespanel.h"

#include "csvtables.h"
#include "issuesmodel.h"
#include "modelroles.h"
#include "selectionmodel.h"

#include "model/trace.h"

#include <QHeaderView>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QVBoxLayout>

namespace kscope {

IssuesPanel::IssuesPanel(SelectionModel* selection, QWidget* parent)
    : Panel(tr("Import issues"), selection, parent), m_table(new QTableView(this)), m_model(new IssuesModel(this))
{
    auto* proxy = new QSortFilterProxyModel(this);
    proxy->setSourceModel(m_model);
    proxy->setSortRole(kSortRole);
    m_table->setModel(proxy);
    m_table->setSortingEnabled(true);
    m_table->sortByColumn(IssuesModel::Severity, Qt::AscendingOrder);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setWordWrap(false);
    m_table->verticalHeader()->hide();
    m_table->verticalHeader()->setDefaultSectionSize(20);
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_table->horizontalHeader()->setStretchLastSection(false);
    m_table->horizontalHeader()->setSectionResizeMode(IssuesModel::Reason, QHeaderView::Stretch);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(m_table);
    connect(m_table, &QTableView::doubleClicked, this, [this](const QModelIndex& index) {
        const int rank = index.data(kRankRole).toInt();
        if (rank >= 0 && m_run && m_run->findRank(rank))
            m_selection->setRank(rank);
    });
    addCsvMenu(m_table, QStringLiteral("import-issues"),
               [this] { return m_run ? importIssuesTable(*m_run) : Table{}; });
}

void IssuesPanel::setRun(std::shared_ptr<const Run> run)
{
    m_run = std::move(run);
    m_model->setRun(m_run);
    emit resultShown();
}

QList<Panel::TableExport> IssuesPanel::tables() const
{
    if (!m_run || m_model->rowCount() == 0)
        return {};
    auto run = m_run;
    return {{QStringLiteral("import-issues"), [run] { return importIssuesTable(*run); }}};
}

} // namespace kscope
