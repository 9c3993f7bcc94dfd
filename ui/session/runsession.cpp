#include "session/runsession.h"

#ifndef Q_MOC_RUN
#include "model/runslice.h"
#include "model/trace.h"
#endif

#include <QFutureWatcher>
#include <QSettings>
#include <QtConcurrent/QtConcurrentRun>

namespace kscope {

namespace {

// The selection of a reopened run, carried over where the new run still has it.
struct CarriedSelection {
    QList<int> ranks;
    int step = -1;
    QString kernelName;
};

QString optionKey(const QString& view, const QString& name) { return view + QLatin1Char('/') + name; }

} // namespace

RunSession::RunSession(QObject* parent) : QObject(parent), m_selection(new SelectionModel(this))
{
    m_htaCompat = QSettings().value(QStringLiteral("analysis/htaCompat"), false).toBool();
    connect(m_selection, &SelectionModel::stepChanged, this, &RunSession::applyStep);
}

RunSession::~RunSession() = default;

void RunSession::setRun(std::shared_ptr<const Run> run, const QString& path)
{
    const bool reopened = m_run && run && path == m_runPath;
    CarriedSelection carried;
    if (reopened)
        carried = {m_selection->ranks(), m_selection->step(), m_selection->kernelName()};

    ++m_runGeneration;
    m_run = std::move(run);
    m_runPath = path;
    m_results.clear();
    m_inFlight.clear();
    m_stepSlices.clear();
    m_slicing = false;
    // Until the new slice is set nothing may be computed: the old slice is another run's.
    m_slice.reset();
    ++m_sliceGeneration;
    {
        // The new run's signals come after the whole selection is set, so views refresh once.
        const QSignalBlocker blocker(m_selection);
        m_selection->clear();
        if (reopened && m_run) {
            QList<int> ranks;
            for (int rank : std::as_const(carried.ranks))
                if (m_run->findRank(rank))
                    ranks.push_back(rank);
            m_selection->setRanks(ranks);
            bool hasStep = false;
            for (const RankTrace& rank : m_run->ranks)
                for (const ProfilerStep& step : rank.steps)
                    hasStep |= step.number == carried.step;
            m_selection->setStep(hasStep ? carried.step : -1);
            // String ids are the new run's own: the kernel is the one with the same name.
            const StringId kernel = carried.kernelName.isEmpty() ? StringId{} : m_run->strings.find(carried.kernelName.toStdString());
            if (kernel)
                m_selection->setKernel(kernel.value, carried.kernelName);
        }
    }
    emit runChanged();
    emit m_selection->ranksChanged();
    emit m_selection->kernelChanged();
    emit m_selection->stepChanged();  // cuts the slice (or shows the whole run) and refreshes views
}

void RunSession::setHtaCompat(bool on)
{
    if (on == m_htaCompat)
        return;
    m_htaCompat = on;
    QSettings().setValue(QStringLiteral("analysis/htaCompat"), on);
    emit htaCompatChanged(on);
}

QVariant RunSession::option(const QString& view, const QString& name, const QVariant& fallback) const
{
    return m_options.value(optionKey(view, name), fallback);
}

void RunSession::setOption(const QString& view, const QString& name, const QVariant& value)
{
    const QString key = optionKey(view, name);
    if (m_options.value(key) == value)
        return;
    m_options.insert(key, value);
    emit optionsChanged(view);
}

void RunSession::applyStep()
{
    if (!m_run) {
        setSlice(nullptr);
        return;
    }
    const int step = m_selection->step();
    if (step < 0) {
        m_slicing = false;
        setSlice(m_run);
        return;
    }
    if (const auto it = m_stepSlices.constFind(step); it != m_stepSlices.cend()) {
        m_slicing = false;
        setSlice(*it);
        return;
    }
    // Views say "Computing…" until the slice is cut; a newer step or run drops this one.
    m_slicing = true;
    setSlice(nullptr);
    const auto run = m_run;
    const quint64 generation = m_runGeneration;
    auto* watcher = new QFutureWatcher<std::shared_ptr<const Run>>(this);
    connect(watcher, &QFutureWatcherBase::finished, this, [this, watcher, generation, step] {
        watcher->deleteLater();
        if (generation != m_runGeneration)
            return;
        std::shared_ptr<const Run> slice = watcher->result();
        m_stepSlices.insert(step, slice);
        if (m_selection->step() != step)
            return;
        m_slicing = false;
        setSlice(std::move(slice));
        if (!isBusy())
            emit idle();
    });
    watcher->setFuture(QtConcurrent::run([run, step] { return std::shared_ptr<const Run>(sliceRunToStep(*run, step)); }));
}

void RunSession::setSlice(std::shared_ptr<const Run> slice)
{
    m_slice = std::move(slice);
    ++m_sliceGeneration;
    emit sliceChanged();
}

QString RunSession::sliceKey(const QString& key) const
{
    return QStringLiteral("step=%1|").arg(m_selection->step()) + key;
}

AnyResult RunSession::cached(const QString& key) const { return m_results.value(sliceKey(key)); }

AnyResult RunSession::request(const AnalysisRequest& request)
{
    if (!m_slice)
        return nullptr;
    const QString fullKey = sliceKey(request.key);
    if (const auto it = m_results.constFind(fullKey); it != m_results.cend())
        return *it;
    if (m_inFlight.contains(fullKey))
        return nullptr;
    m_inFlight.insert(fullKey);
    const auto slice = m_slice;
    const quint64 generation = m_runGeneration;
    auto* watcher = new QFutureWatcher<AnyResult>(this);
    connect(watcher, &QFutureWatcherBase::finished, this, [this, watcher, generation, fullKey] {
        watcher->deleteLater();
        if (generation != m_runGeneration)
            return;  // computed for a run that is no longer open
        m_results.insert(fullKey, watcher->result());
        ++m_computed;
        finishJob(fullKey);
    });
    watcher->setFuture(QtConcurrent::run([slice, compute = request.compute] { return compute(*slice); }));
    return nullptr;
}

void RunSession::finishJob(const QString& fullKey)
{
    m_inFlight.remove(fullKey);
    // Views ask by their own key; the slice prefix is the session's business.
    const qsizetype bar = fullKey.indexOf(QLatin1Char('|'));
    emit resultReady(fullKey.mid(bar + 1));
    if (!isBusy())
        emit idle();
}

} // namespace kscope
