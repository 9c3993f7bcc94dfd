#include "models/resulttableview.h"

#include "common/filewriting.h"
#include "models/modelroles.h"
#include "models/resulttablemodel.h"

#include "analysis/core/kernelnames.h"

#include <QFileDialog>
#include <QHeaderView>
#include <QMenu>
#include <QMessageBox>
#include <QTimer>

#include <cmath>

namespace kscope {

ResultFilterProxy::ResultFilterProxy(QObject* parent) : QSortFilterProxyModel(parent)
{
    setSortRole(kSortRole);
    setFilterRole(kFilterRole);  // the full name: the shortened text would hide matches
    setFilterCaseSensitivity(Qt::CaseInsensitive);
}

void ResultFilterProxy::setRankFilter(const QList<RankIndex>& ranks)
{
    if (ranks == m_ranks)
        return;
    m_ranks = ranks;
    invalidateFilter();
}

void ResultFilterProxy::setRowFilter(std::function<bool(int sourceRow)> accepts)
{
    m_rowFilter = std::move(accepts);
    invalidateFilter();
}

bool ResultFilterProxy::filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const
{
    if (m_rowFilter && !m_rowFilter(sourceRow))
        return false;
    if (!m_ranks.isEmpty()) {
        const int rank = sourceModel()->index(sourceRow, 0, sourceParent).data(kRankIndexRole).toInt();
        if (rank < 0 || !m_ranks.contains(RankIndex{static_cast<uint32_t>(rank)}))
            return false;
    }
    return QSortFilterProxyModel::filterAcceptsRow(sourceRow, sourceParent);
}

bool ResultFilterProxy::lessThan(const QModelIndex& left, const QModelIndex& right) const
{
    if (left.column() != m_magnitudeColumn || right.column() != m_magnitudeColumn)
        return QSortFilterProxyModel::lessThan(left, right);
    const QVariant a = left.data(kSortRole), b = right.data(kSortRole);
    if (!a.isValid() || !b.isValid())
        return !a.isValid() && b.isValid();  // empty cells first, so last in a descending sort
    return std::abs(a.toDouble()) < std::abs(b.toDouble());
}

ResultTableView::ResultTableView(const QString& exportName, QWidget* parent)
    : QTableView(parent), m_exportName(exportName), m_model(new ResultTableModel(this)), m_proxy(new ResultFilterProxy(this))
{
    m_proxy->setSourceModel(m_model);
    setModel(m_proxy);
    // Rows first come in the analysis's own order (the CLI's: operators by device time, ranks
    // ascending, ...); a header click sorts. Qt's default indicator would sort by the first
    // column, descending: rank 7 first, names Z to A.
    horizontalHeader()->setSortIndicator(-1, Qt::AscendingOrder);
    setSortingEnabled(true);
    setMinimumHeight(64);  // a header and two rows: stacked docks must fit small screens
    setSelectionBehavior(QAbstractItemView::SelectRows);
    setSelectionMode(QAbstractItemView::SingleSelection);
    setAlternatingRowColors(true);
    setWordWrap(false);
    setTextElideMode(Qt::ElideMiddle);
    verticalHeader()->hide();
    verticalHeader()->setDefaultSectionSize(20);
    horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    // Column widths from the first rows, not 1,000 of them: 1,000 ranks make 25,000-row tables.
    horizontalHeader()->setResizeContentsPrecision(64);
    horizontalHeader()->setStretchLastSection(false);
    setContextMenuPolicy(Qt::CustomContextMenu);
    connect(this, &QWidget::customContextMenuRequested, this, &ResultTableView::showContextMenu);
    connect(selectionModel(), &QItemSelectionModel::currentRowChanged, this, [this](const QModelIndex& current) {
        if (!m_updating && current.isValid())
            emit rowPicked(m_proxy->mapToSource(current));
    });
    connect(m_model, &QAbstractItemModel::modelReset, this, [this] {
        m_widestName = -1;
        QTimer::singleShot(0, this, &ResultTableView::fitColumns);
    });
}

namespace {
struct UpdatingGuard {
    bool& flag;
    bool previous;
    explicit UpdatingGuard(bool& f) : flag(f), previous(f) { flag = true; }
    ~UpdatingGuard() { flag = previous; }
};
} // namespace

void ResultTableView::setRankFilter(const QList<RankIndex>& ranks)
{
    const UpdatingGuard guard(m_updating);
    m_proxy->setRankFilter(ranks);
}

void ResultTableView::setSearchText(const QString& text)
{
    const UpdatingGuard guard(m_updating);
    m_proxy->setFilterFixedString(text);
}

void ResultTableView::setRowFilter(std::function<bool(int sourceRow)> accepts)
{
    const UpdatingGuard guard(m_updating);
    m_proxy->setRowFilter(std::move(accepts));
}

void ResultTableView::setTable(std::shared_ptr<const Table> table, QVector<quint32> rowIds)
{
    const UpdatingGuard guard(m_updating);
    m_model->setTable(std::move(table), std::move(rowIds));
    // Which rank a row is about comes first, whatever the table's own order (the CLI's kernel
    // tables put it last, off screen in a dock).
    QHeaderView* header = horizontalHeader();
    if (const int rank = m_model->columnOf(QStringLiteral("rank")); m_rankFirst && rank >= 0 && header->visualIndex(rank) != 0)
        header->moveSection(header->visualIndex(rank), 0);
    if (m_changeColumn.isEmpty())
        return;
    const int change = m_model->columnOf(m_changeColumn);
    m_proxy->setMagnitudeColumn(change);
    if (change < 0)
        return;
    const int wide = std::max(0, m_model->columnOf(m_wideColumn));
    header->moveSection(header->visualIndex(change), header->visualIndex(wide) + 1);
    if (header->sortIndicatorSection() < 0 || header->sortIndicatorSection() == change)
        sortByColumn(change, Qt::DescendingOrder);
}

void ResultTableView::setNameColumn(const QString& column)
{
    m_wideColumn = column;
    m_rankFirst = true;
    m_model->setNameColumn(column);
}

void ResultTableView::fitColumns()
{
    const int name = m_model->columnOf(m_wideColumn);
    QHeaderView* header = horizontalHeader();
    if (name < 0) {
        header->setStretchLastSection(true);
        return;
    }
    // Numbers keep their natural width; the name takes the rest, and at least what a readable
    // short name needs (the table scrolls sideways rather than eliding names to "…").
    int others = 0;
    for (int c = 0; c < m_model->columnCount(); ++c)
        if (c != name && !isColumnHidden(c))
            others += header->sectionSize(c);
    if (m_widestName < 0) {  // once per table, not per resize
        m_widestName = fontMetrics().horizontalAdvance(header->model()->headerData(name, Qt::Horizontal).toString()) + 24;
        for (int r = 0; r < std::min(m_model->rowCount(), 200); ++r)
            m_widestName = std::max(m_widestName, fontMetrics().horizontalAdvance(m_model->index(r, name).data().toString()) + 16);
    }
    const int widest = m_widestName;
    const int spare = viewport()->width() - others;
    header->setSectionResizeMode(name, QHeaderView::Interactive);
    header->resizeSection(name, std::max(spare, std::min(widest, 320)));
}

void ResultTableView::resizeEvent(QResizeEvent* event)
{
    QTableView::resizeEvent(event);
    fitColumns();
}

bool ResultTableView::isFiltered() const { return m_proxy->rowCount() != m_model->rowCount(); }

Table ResultTableView::shownRows() const
{
    QList<int> rows;
    for (int r = 0; r < m_proxy->rowCount(); ++r)
        rows.push_back(m_proxy->mapToSource(m_proxy->index(r, 0)).row());
    if (rows.isEmpty())
        return m_model->table() ? Table{m_model->table()->columns, {}, m_model->table()->notes} : Table{};
    return m_model->rowsAsTable(rows);
}

void ResultTableView::showContextMenu(const QPoint& pos)
{
    QMenu menu(this);
    const bool filtered = isFiltered();
    QAction* shown = menu.addAction(filtered ? tr("Export %1 Shown Rows as CSV…").arg(m_proxy->rowCount())
                                             : tr("Export as CSV…"));
    QAction* all = filtered ? menu.addAction(tr("Export All %1 Rows as CSV…").arg(m_model->rowCount())) : nullptr;
    shown->setEnabled(m_model->table() != nullptr);
    QAction* chosen = menu.exec(viewport()->mapToGlobal(pos));
    if (chosen && (chosen == shown || chosen == all))
        exportCsv(chosen == shown);
}

void ResultTableView::exportCsv(bool shownOnly)
{
    const QString path = QFileDialog::getSaveFileName(this, tr("Export Table as CSV"),
                                                      exportSuggestion(m_exportName + QStringLiteral(".csv")), tr("CSV (*.csv)"));
    if (path.isEmpty())
        return;
    rememberExport(path);
    Table table = shownOnly ? shownRows() : m_model->rowsAsTable({});
    if (!shortNameColumn().isEmpty())  // a kernel table: the short names the screen shows, beside the full ones
        table = withShortNameColumn(std::move(table), shortNameColumn().toStdString());
    QString error;
    if (!writeCsvFile(table, path, &error)) {
        QMessageBox::warning(this, tr("Export Table"), tr("Could not write %1").arg(error));
        emit exportFailed(error);
        return;
    }
    emit exported(path, int(table.rows.size()));
}

} // namespace kscope
