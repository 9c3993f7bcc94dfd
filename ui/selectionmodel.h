#pragma once

#include <QList>
#include <QObject>
#include <QString>

namespace kscope {

// The drill-down state every panel follows: selected rank(s), kernel and step. Panels write it
// on clicks and redraw on its signals; nothing else is shared between panels.
class SelectionModel : public QObject {
    Q_OBJECT
public:
    explicit SelectionModel(QObject* parent = nullptr);

    QList<int> ranks() const { return m_ranks; }
    int rank() const { return m_ranks.isEmpty() ? -1 : m_ranks.front(); }  // the one clicked last
    quint32 kernel() const { return m_kernel; }  // run-wide StringId value, 0 = none
    QString kernelName() const { return m_kernelName; }
    int step() const { return m_step; }  // -1 = every step

    void setRanks(const QList<int>& ranks);
    void setRank(int rank) { setRanks(rank < 0 ? QList<int>{} : QList<int>{rank}); }
    // A click on a rank: alone it selects that rank; with Ctrl it adds or removes it, so several
    // ranks can be compared (the kernels table shows them all; single-rank panels the newest).
    void clickRank(int rank);
    void setKernel(quint32 kernel, const QString& name);
    void setStep(int step);
    void clear();  // a new run: nothing of the old one is valid

signals:
    void ranksChanged();
    void kernelChanged();
    void stepChanged();

private:
    QList<int> m_ranks;
    quint32 m_kernel = 0;
    QString m_kernelName;
    int m_step = -1;
};

} // namespace kscope
