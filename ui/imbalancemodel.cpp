#include "imbalancemodel.h"

#include "format.h"
#include "modelroles.h"

#include "analysis/kerneldistribution.h"
#include "analysis/kerneltype.h"

namespace kscope {

void ImbalanceModel::setResult(std::shared_ptr<const Run> run, std::shared_ptr<const KernelDistributions> result)
{
    beginResetModel();
    m_result = std::move(result);
    m_names.clear();
    m_shortNames.clear();
    if (run && m_result) {
        for (const KernelDistribution& k : m_result->kernels) {
            m_names.push_back(fmt::qstr(run->str(k.name)));
            m_shortNames.push_back(fmt::qstr(shortenKernelName(run->str(k.name))));
        }
    }
    endResetModel();
}

int ImbalanceModel::rowOfKernel(quint32 kernel) const
{
    for (int i = 0; i < m_names.size(); ++i)
        if (m_result->kernels[static_cast<size_t>(i)].name.value == kernel)
            return i;
    return -1;
}

int ImbalanceModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_names.size());
}

int ImbalanceModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : ColumnCount; }

QVariant ImbalanceModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const KernelDistribution& k = m_result->kernels[static_cast<size_t>(index.row())];
    switch (role) {
    case Qt::DisplayRole:
        switch (index.column()) {
        case Name: return fmt::elided(m_shortNames[index.row()], 44);
        case Spread: return QStringLiteral("%1×").arg(k.spread, 0, 'f', 2);
        case Total: return fmt::duration(double(k.totalNs));
        case Ranks: return static_cast<int>(k.ranks.size());
        default: return {};
        }
    case Qt::ToolTipRole:
        return tr("%1\n%2, slowest median / fastest median across ranks: %3×\n%4 in total")
            .arg(m_names[index.row()], fmt::qstr(toString(k.type)))
            .arg(k.spread, 0, 'f', 3)
            .arg(fmt::micros(double(k.totalNs)));
    case kSortRole:
        switch (index.column()) {
        case Name: return m_names[index.row()];
        case Spread: return k.spread;
        case Total: return qint64(k.totalNs);
        case Ranks: return static_cast<int>(k.ranks.size());
        default: return {};
        }
    case kIdRole:
        return k.name.value;
    case Qt::TextAlignmentRole:
        return index.column() == Name ? QVariant::fromValue(Qt::AlignLeft | Qt::AlignVCenter)
                                      : QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
    default:
        return {};
    }
}

QVariant ImbalanceModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole || section < 0 || section >= ColumnCount)
        return {};
    static const char* const kNames[] = {"Kernel", "Spread", "Total", "Ranks"};
    return tr(kNames[section]);
}

} // namespace kscope
