#pragma once

#include <QFutureWatcher>
#include <QObject>
#include <QtConcurrent/QtConcurrentRun>

#include <utility>

namespace kscope {

// One kind of background result a panel waits for. Each request gets a new generation; a result
// whose generation is no longer the latest is dropped, because the user has asked for something
// else meanwhile (another rank, another run).
struct JobSlot {
    quint64 issued = 0;
    quint64 applied = 0;
    bool busy() const { return applied != issued; }
    void invalidate() { applied = ++issued; }  // drop whatever is in flight
};

// Runs compute() on the global thread pool and apply(result) on receiver's thread if the
// request is still the latest of its slot. The slot must live as long as receiver.
template <typename Compute, typename Apply>
void runJob(QObject* receiver, JobSlot& slot, Compute compute, Apply apply)
{
    using Result = decltype(compute());
    const quint64 generation = ++slot.issued;
    auto* watcher = new QFutureWatcher<Result>(receiver);
    QObject::connect(watcher, &QFutureWatcherBase::finished, receiver,
                     [watcher, generation, &slot, apply = std::move(apply)]() mutable {
                         watcher->deleteLater();
                         if (generation != slot.issued)
                             return;  // stale
                         slot.applied = generation;
                         apply(watcher->result());
                     });
    watcher->setFuture(QtConcurrent::run(std::move(compute)));
}

} // namespace kscope
