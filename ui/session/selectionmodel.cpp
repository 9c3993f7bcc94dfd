#include "session/selectionmodel.h"

namespace kscope {

namespace {

// Assigns a new value; true when it differs from the old (the change is then signalled).
template <typename T>
bool changes(T& member, const T& value)
{
    if (member == value)
        return false;
    member = value;
    return true;
}

} // namespace

SelectionModel::SelectionModel(QObject* parent) : QObject(parent) {}

void SelectionModel::setRanks(const QList<RankIndex>& ranks)
{
    if (changes(m_ranks, ranks))
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
    if (changes(m_op, name))
        emit opChanged();
}

void SelectionModel::setEvent(std::optional<EventRef> event)
{
    if (event && event->isNull())
        event.reset();
    if (changes(m_event, event))
        emit eventChanged();
}

void SelectionModel::setStep(int step)
{
    if (changes(m_step, step))
        emit stepChanged();
}

void SelectionModel::setTimeRange(const TimeRange& range)
{
    if (changes(m_timeRange, range))
        emit timeRangeChanged();
}

void SelectionModel::clear()
{
    setRanks({});
    setKernel(0, {});
    setOp({});
    setEvent(std::nullopt);
    setStep(-1);
    setTimeRange({});
}

} // namespace kscope
