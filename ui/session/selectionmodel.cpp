#include "session/selectionmodel.h"

namespace kscope {

SelectionModel::SelectionModel(QObject* parent) : QObject(parent) {}

void SelectionModel::setRanks(const QList<RankIndex>& ranks)
{
    if (ranks == m_ranks)
        return;
    m_ranks = ranks;
    emit ranksChanged();
}

void SelectionModel::clickRank(RankIndex rank, bool additive)
{
    if (!additive) {
        setRank(rank);
        return;
    }
    QList<RankIndex> ranks = m_ranks;
    if (ranks.removeAll(rank) == 0)
        ranks.prepend(rank);
    setRanks(ranks);
}

void SelectionModel::setKernel(quint32 kernel, const QString& name)
{
    if (kernel == m_kernel)
        return;
    m_kernel = kernel;
    m_kernelName = name;
    emit kernelChanged();
}

void SelectionModel::setOp(const QString& name)
{
    if (name == m_op)
        return;
    m_op = name;
    emit opChanged();
}

void SelectionModel::setStep(int step)
{
    if (step == m_step)
        return;
    m_step = step;
    emit stepChanged();
}

void SelectionModel::setTimeRange(const TimeRange& range)
{
    if (range == m_timeRange)
        return;
    m_timeRange = range;
    emit timeRangeChanged();
}

void SelectionModel::clear()
{
    setRanks({});
    setKernel(0, {});
    setOp({});
    setStep(-1);
    setTimeRange({});
}

} // namespace kscope
