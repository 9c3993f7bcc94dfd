#include "models/eventtablemodel.h"

#include "common/format.h"
#include "models/modelroles.h"
#include "models/resulttablemodel.h"

#include "analysis/operators/eventquery.h"

#include <QLocale>

namespace kscope {

void EventTableModel::setRows(std::shared_ptr<const Run> run, RankIndex rank, std::shared_ptr<const std::vector<EventIndex>> rows)
{
    beginResetModel();
    m_run = std::move(run);
    m_rank = m_run && m_run->has(rank) ? &m_run->at(rank) : nullptr;
    m_rows = m_rank ? std::move(rows) : nullptr;
    m_cachedRow = -1;
    m_cached.clear();
    m_columns.clear();
    const std::vector<TableColumn>& columns = eventColumns();
    for (int c = 0; c < int(columns.size()); ++c)
        if (columns[size_t(c)] != "rank")  // one rank at a time: the view's title says which
            m_columns.push_back(c);
    endResetModel();
}

const std::vector<Cell>& EventTableModel::cellsOf(int row) const
{
    if (row != m_cachedRow) {
        m_cached = eventCells(*m_run, *m_rank, (*m_rows)[size_t(row)]);
        m_cachedRow = row;
    }
    return m_cached;
}

int EventTableModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : int(size());
}

int EventTableModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() || !m_rows ? 0 : int(m_columns.size());
}

QVariant EventTableModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid() || !m_rows || index.row() >= int(m_rows->size()))
        return {};
    const std::string& column = eventColumns()[size_t(m_columns[size_t(index.column())])];
    if (role == kIdRole) {
        const EventIndex e = (*m_rows)[size_t(index.row())];
        return m_rank->events.name[e].value;
    }
    if (role != Qt::DisplayRole && role != Qt::ToolTipRole && role != Qt::TextAlignmentRole)
        return {};
    const Cell& cell = cellsOf(index.row())[size_t(m_columns[size_t(index.column())])];
    if (role == Qt::TextAlignmentRole)
        return std::holds_alternative<std::string>(cell) ? QVariant(Qt::AlignLeft | Qt::AlignVCenter)
                                                         : QVariant(Qt::AlignRight | Qt::AlignVCenter);
    if (const auto* text = std::get_if<std::string>(&cell))
        return role == Qt::ToolTipRole && column == "name" ? fmt::wrappedTooltip(fmt::qstr(*text)) : QVariant(fmt::qstr(*text));
    if (const auto* number = std::get_if<int64_t>(&cell))
        return QString::number(*number);
    if (const auto* real = std::get_if<double>(&cell))
        return QString::number(*real, 'f', 3);
    return {};
}

QVariant EventTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (role != Qt::DisplayRole || orientation != Qt::Horizontal || section < 0 || section >= int(m_columns.size()))
        return QAbstractTableModel::headerData(section, orientation, role);
    return ResultTableModel::headerText(eventColumns()[size_t(m_columns[size_t(section)])]);
}

Table EventTableModel::firstRows(size_t limit) const
{
    Table table;
    table.columns = eventColumns();
    if (!m_rows)
        return table;
    const size_t n = std::min(limit, m_rows->size());
    table.rows.reserve(n);
    for (size_t r = 0; r < n; ++r)
        table.addRow(eventCells(*m_run, *m_rank, (*m_rows)[r]));
    if (n < m_rows->size())
        table.notes.push_back("the first " + std::to_string(n) + " of " + std::to_string(m_rows->size())
                              + " events; kinetoscope-cli events writes them all");
    return table;
}

QString eventSummary(const Run& run, EventRef event)
{
    if (!run.has(event.rank) || event.event < 0 || size_t(event.event) >= run.at(event.rank).events.size())
        return {};
    const EventTable& t = run.at(event.rank).events;
    const EventIndex e = event.event;
    const bool onGpu = t.kind[e] == EventKind::Kernel || t.kind[e] == EventKind::Memcpy || t.kind[e] == EventKind::Memset;
    const ThreadKey& thread = run.at(event.rank).threads[t.thread[e]];
    const QString where = onGpu ? QObject::tr("stream %1").arg(t.stream[e])
                                : QObject::tr("thread %1").arg(thread.tidName ? fmt::qstr(run.str(thread.tidName)) : QString::number(thread.tid));
    return QObject::tr("%1 (%2) on rank %3, %4: %5 from %6")
        .arg(fmt::elided(fmt::qstr(run.str(t.name[e])), 60), QString::fromLatin1(toString(eventClass(t, e))),
             fmt::qstr(run.rankName(event.rank)), where, fmt::duration(double(t.durNs[e])),
             fmt::duration(double(t.tsNs[e] - run.minTsNs)));
}

} // namespace kscope
