#include "models/resulttablemodel.h"

#include "common/format.h"
#include "models/modelroles.h"

#include "analysis/core/kernelnames.h"

#include <QLocale>

#include <optional>
#include <unordered_map>

namespace kscope {

namespace {

std::optional<double> numberOf(const Cell& cell)
{
    if (const auto* i = std::get_if<int64_t>(&cell))
        return double(*i);
    if (const auto* d = std::get_if<double>(&cell))
        return *d;
    return std::nullopt;
}

} // namespace

QString ResultTableModel::headerText(const std::string& column)
{
    QString text = fmt::qstr(column);
    text.replace(QStringLiteral(" (us)"), QStringLiteral(" (µs)")).replace(QStringLiteral("(us)"), QStringLiteral(" (µs)"));
    text.replace(QStringLiteral("_pctg"), QStringLiteral(" %"));
    text.replace(QLatin1Char('_'), QLatin1Char(' '));
    return text;
}

void ResultTableModel::setTable(std::shared_ptr<const Table> table, QVector<quint32> rowIds)
{
    beginResetModel();
    m_table = std::move(table);
    m_rowIds = std::move(rowIds);
    m_shown.clear();
    m_units.clear();
    m_fullNames.clear();
    m_shortNames.clear();
    m_nameOfRow.clear();
    m_rankColumn = m_nameTableColumn = -1;
    if (m_table) {
        for (int c = 0; c < int(m_table->columns.size()); ++c) {
            const std::string& name = m_table->columns[size_t(c)];
            if (name == "rank")
                m_rankColumn = c;
            if (fmt::qstr(name) == m_nameColumn)
                m_nameTableColumn = c;
            if (m_hidden.contains(fmt::qstr(name)))
                continue;
            m_shown.push_back(c);
            m_units.push_back(m_table->columns[size_t(c)].unit);
        }
        if (m_nameTableColumn >= 0) {
            std::vector<std::string_view> names;
            for (const auto& row : m_table->rows) {
                const auto* text = std::get_if<std::string>(&row[size_t(m_nameTableColumn)]);
                names.push_back(text ? std::string_view(*text) : std::string_view());
            }
            const std::vector<std::string> shortNames = distinctShortNames(names);
            // A name repeats once per rank: one QString per distinct name, shared by its rows.
            std::unordered_map<std::string_view, int> distinct;
            m_nameOfRow.reserve(qsizetype(names.size()));
            for (size_t r = 0; r < names.size(); ++r) {
                const auto [it, added] = distinct.emplace(names[r], int(m_fullNames.size()));
                if (!added) {
                    m_nameOfRow.push_back(it->second);
                    continue;
                }
                m_nameOfRow.push_back(int(m_fullNames.size()));
                m_fullNames.push_back(fmt::qstr(names[r]));
                m_shortNames.push_back(fmt::qstr(shortNames[r]));
            }
        }
    }
    endResetModel();
}

int ResultTableModel::columnOf(const QString& name) const
{
    for (int c = 0; c < m_shown.size(); ++c)
        if (fmt::qstr(m_table->columns[size_t(m_shown[c])].name) == name)
            return c;
    return -1;
}

int ResultTableModel::rowOfId(quint32 id) const
{
    const qsizetype row = m_rowIds.indexOf(id);
    return id != 0 ? int(row) : -1;
}

Table ResultTableModel::rowsAsTable(const QList<int>& rows) const
{
    if (!m_table)
        return {};
    if (rows.isEmpty())
        return *m_table;
    Table out;
    out.columns = m_table->columns;
    out.notes = m_table->notes;
    for (int r : rows)
        if (r >= 0 && r < int(m_table->rows.size()))
            out.rows.push_back(m_table->rows[size_t(r)]);
    return out;
}

int ResultTableModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() || !m_table ? 0 : int(m_table->rows.size());
}

int ResultTableModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : int(m_shown.size()); }

QVariant ResultTableModel::displayText(const Cell& cell, Unit unit) const
{
    const std::optional<double> number = numberOf(cell);
    if (!number)
        return std::holds_alternative<std::string>(cell) ? fmt::qstr(std::get<std::string>(cell)) : QStringLiteral("–");
    switch (unit) {
    case Unit::Micros: return fmt::compact(*number * 1000.0);
    case Unit::Percent: return fmt::percent(*number);
    case Unit::Fraction: return fmt::percent(*number * 100.0);
    default:
        if (std::holds_alternative<int64_t>(cell))
            return QString::number(std::get<int64_t>(cell));
        return QString::number(*number, 'g', 5);
    }
}

QVariant ResultTableModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const int row = index.row();
    const int column = m_shown[index.column()];
    const Unit unit = m_units[index.column()];
    const Cell& cell = m_table->rows[size_t(row)][size_t(column)];
    if (m_style) {
        const QVariant styled = m_style(*m_table, row, column, role);
        if (styled.isValid())
            return styled;
    }
    const bool isName = column == m_nameTableColumn;
    switch (role) {
    case Qt::DisplayRole:
        return isName ? QVariant(m_shortNames[m_nameOfRow[row]]) : displayText(cell, unit);
    case Qt::ToolTipRole:
        if (isName)
            return fmt::wrappedTooltip(m_fullNames[m_nameOfRow[row]]);
        if (unit == Unit::Micros && numberOf(cell))
            return fmt::micros(*numberOf(cell) * 1000.0);
        if (const auto* text = std::get_if<std::string>(&cell))
            return text->size() > 24 ? fmt::wrappedTooltip(fmt::qstr(*text)) : QVariant();
        return {};
    case kSortRole:
        if (isName)
            return m_fullNames[m_nameOfRow[row]];
        if (const std::optional<double> number = numberOf(cell))
            return *number;
        return displayText(cell, unit);
    case kFilterRole:
        return isName ? m_fullNames[m_nameOfRow[row]] : displayText(cell, unit);
    case kRankRole:
        if (m_rankColumn >= 0)
            if (const auto* rank = std::get_if<int64_t>(&m_table->rows[size_t(row)][size_t(m_rankColumn)]))
                return int(*rank);
        return -1;
    case kRankIndexRole:
        return m_table->rowRanks.size() == m_table->rows.size() ? int(m_table->rowRanks[size_t(row)].value) : -1;
    case kIdRole:
        if (!m_rowIds.isEmpty())
            return m_rowIds.value(row);
        return data(index, kRankRole);
    case Qt::TextAlignmentRole:
        return numberOf(cell) ? QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter)
                              : QVariant::fromValue(Qt::AlignLeft | Qt::AlignVCenter);
    default:
        return {};
    }
}

QVariant ResultTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || !m_table || section < 0 || section >= m_shown.size())
        return {};
    const std::string& name = m_table->columns[size_t(m_shown[section])];
    if (role == Qt::DisplayRole) {
        // Each time cell carries its own unit ("7.46 ms"): the header names only the quantity.
        QString text = headerText(name);
        if (m_units[section] == Unit::Micros)
            text.remove(QStringLiteral(" (µs)"));
        return text;
    }
    if (role == Qt::ToolTipRole)
        return tr("Column \"%1\" in the CLI's and CSV's output").arg(fmt::qstr(name));
    return {};
}

} // namespace kscope
