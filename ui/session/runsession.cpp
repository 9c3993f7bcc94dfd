#include "session/runsession.h"

#ifndef Q_MOC_RUN
#include "common/filewriting.h"
#include "model/atomicfile.h"
#include "model/log.h"
#include "model/runslice.h"
#include "model/trace.h"
#endif

#include <QElapsedTimer>
#include <QFileInfo>
#include <QFutureWatcher>
#include <QSettings>
#include <QtConcurrent/QtConcurrentRun>

#include <atomic>

namespace kscope {

namespace {

QString optionKey(const QString& view, const QString& name) { return view + QLatin1Char('/') + name; }

bool hasStep(const Run& run, int step)
{
    for (const RankTrace& rank : run.ranks)
        for (const ProfilerStep& s : rank.steps)
            if (s.number == step)
                return true;
    return false;
}

// The rank traces of `run` that are the ranks (number, file name) of another run or of the same
// run loaded again: the same number from a file of the same name, else the first of that number
// (a comparison's other run has its own files).
QList<RankIndex> sameRanksIn(const Run& run, const std::vector<std::pair<int, std::string>>& ranks)
{
    QList<RankIndex> found;
    for (const auto& [number, file] : ranks) {
        const RankTrace* same = nullptr;
        for (const RankTrace& r : run.ranks)
            if (r.rank == number && (!same || r.file.filename() == file))
                same = &r;
        if (same && !found.contains(run.indexOf(*same)))
            found.push_back(run.indexOf(*same));
    }
    return found;
}

} // namespace

struct RunSession::LiveGenerations {
    std::array<std::atomic<quint64>, 2> side{};
};

RunSession::RunSession(QObject* parent)
    : QObject(parent), m_selection(new SelectionModel(this)), m_live(std::make_shared<LiveGenerations>())
{
    m_htaCompat = QSettings().value(QStringLiteral("analysis/htaCompat"), false).toBool();
    connect(m_selection, &SelectionModel::stepChanged, this, &RunSession::applyStep);
}

RunSession::~RunSession() = default;

QString RunSession::label(RunSide side) const
{
    const QString name = QFileInfo(m_sides[int(side)].path).fileName();
    if (!name.isEmpty())
        return name;
    return side == RunSide::Control ? tr("control") : tr("test");
}

void RunSession::setRun(std::shared_ptr<const Run> run, const QString& path)
{
    const bool reopened = m_sides[0].run && run && path == m_sides[0].path;
    if (!reopened && m_sides[1].run) {
        m_sides[1] = {};
        emit comparisonChanged();
    }
    const std::shared_ptr<const Run> shownBefore = this->run();
    m_sides[0].run = std::move(run);
    m_sides[0].path = path;
    m_sides[0].generation = ++m_nextGeneration;
    m_live->side[0] = m_sides[0].generation;
    m_sides[0].stepSlices.clear();
    m_sides[0].stepsByUse.clear();
    m_shown = RunSide::Control;
    protectInputs();
    dropStaleResults();
    emit runChanged();
    showRun(RunSide::Control, reopened, shownBefore);
}

void RunSession::setTestRun(std::shared_ptr<const Run> run, const QString& path)
{
    const std::shared_ptr<const Run> shownBefore = this->run();
    m_sides[1].run = std::move(run);
    m_sides[1].path = path;
    m_sides[1].generation = ++m_nextGeneration;
    m_live->side[1] = m_sides[1].generation;
    m_sides[1].stepSlices.clear();
    m_sides[1].stepsByUse.clear();
    protectInputs();
    dropStaleResults();
    // Views of the test run move first (to the new test run, or back to the control when the
    // comparison closes), so whoever listens to comparisonChanged sees a consistent session.
    if (m_shown == RunSide::Test)
        showRun(m_sides[1].run ? RunSide::Test : RunSide::Control, true, shownBefore);
    emit comparisonChanged();  // single-run views of the control run have nothing to redo
}

void RunSession::protectInputs() const
{
    std::vector<std::filesystem::path> files;
    for (const Side& side : m_sides)
        if (side.run)
            for (std::filesystem::path& file : inputFiles(*side.run))
                files.push_back(std::move(file));
    setFilesNotToOverwrite(std::move(files));
}

void RunSession::dropStaleResults()
{
    // Keys begin with the generations of the runs they were computed from.
    const QString control = QString::number(m_sides[0].generation);
    const QString test = QString::number(m_sides[1].generation);
    const QString comparison = QStringLiteral("cmp|%1|%2|").arg(control, test);
    const auto current = [&](const QString& key) {
        return key.startsWith(comparison) || key.startsWith(control + QLatin1Char('|'))
            || (m_sides[1].run && key.startsWith(test + QLatin1Char('|')));
    };
    for (auto it = m_results.begin(); it != m_results.end();) {
        if (current(it.key())) {
            ++it;
            continue;
        }
        m_lastUse.remove(it.key());
        it = m_results.erase(it);
    }
    for (auto it = m_failures.begin(); it != m_failures.end();)
        it = current(it.key()) ? std::next(it) : m_failures.erase(it);
}

void RunSession::setShownSide(RunSide side)
{
    if (side == m_shown || (side == RunSide::Test && !m_sides[1].run))
        return;
    showRun(side, true, run());
}

void RunSession::showRun(RunSide side, bool keepSelection, const std::shared_ptr<const Run>& before)
{
    // The selection carries over where the newly shown run has it: ranks by number and file
    // name, the step by number, the kernel by name (string ids are each run's own). An event does
    // not: its row means nothing in another run or another mode's load.
    std::vector<std::pair<int, std::string>> ranks;
    if (before)
        for (RankIndex index : m_selection->ranks())
            if (before->has(index))
                ranks.emplace_back(before->at(index).rank, before->at(index).file.filename().string());
    const int step = m_selection->step();
    const QString kernelName = m_selection->kernelName();
    const QString op = m_selection->op();
    m_shown = side;
    m_slicing = false;
    // Until the new slice is set nothing may be computed: the old slice is another run's.
    m_slice.reset();
    ++m_sliceGeneration;
    const auto shown = run();
    {
        // The selection's signals come after it is whole, so views refresh once.
        const QSignalBlocker blocker(m_selection);
        m_selection->clear();
        if (keepSelection && shown) {
            m_selection->setRanks(sameRanksIn(*shown, ranks));
            m_selection->setStep(step >= 0 && hasStep(*shown, step) ? step : -1);
            const StringId kernel = kernelName.isEmpty() ? StringId{} : shown->strings.find(kernelName.toStdString());
            if (kernel)
                m_selection->setKernel(kernel.value, kernelName);
            if (!op.isEmpty() && shown->strings.find(op.toStdString()))
                m_selection->setOp(op);
        }
    }
    emit m_selection->ranksChanged();
    emit m_selection->kernelChanged();
    emit m_selection->eventChanged();
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
    const auto shown = run();
    if (!shown) {
        setSlice(nullptr);
        return;
    }
    const int step = m_selection->step();
    if (step < 0) {
        m_slicing = false;
        setSlice(shown);
        return;
    }
    Side& side = m_sides[int(m_shown)];
    if (const auto it = side.stepSlices.constFind(step); it != side.stepSlices.cend()) {
        m_slicing = false;
        side.stepsByUse.removeOne(step);
        side.stepsByUse.push_back(step);
        setSlice(*it);
        return;
    }
    // Views say "Computing…" until the slice is cut; a newer step, side or run drops this one.
    m_slicing = true;
    setSlice(nullptr);
    const quint64 generation = side.generation;
    const RunSide sideIndex = m_shown;
    const QString cut = QStringLiteral("%1|%2").arg(generation).arg(step);
    if (m_cutting.contains(cut))
        return;  // already being cut (N -> M -> N): that cut shows it when done
    m_cutting.insert(cut);
    auto* watcher = new QFutureWatcher<std::shared_ptr<const Run>>(this);
    connect(watcher, &QFutureWatcherBase::finished, this, [this, watcher, generation, sideIndex, step, cut] {
        watcher->deleteLater();
        m_cutting.remove(cut);
        Side& s = m_sides[int(sideIndex)];
        if (generation == s.generation) {
            std::shared_ptr<const Run> slice = watcher->result();
            keepStepSlice(s, step, slice);
            if (m_shown == sideIndex && m_selection->step() == step) {
                m_slicing = false;
                setSlice(std::move(slice));
            }
        }
        if (!isBusy())
            emit idle();
    });
    watcher->setFuture(QtConcurrent::run([shown, step] { return std::shared_ptr<const Run>(sliceRunToStep(*shown, step)); }));
}

// A step's slice is a copy of its events: a few are kept for going back and forth, the least
// recently shown go first (the one on screen stays alive through m_slice).
void RunSession::keepStepSlice(Side& side, int step, std::shared_ptr<const Run> slice)
{
    side.stepSlices.insert(step, std::move(slice));
    side.stepsByUse.removeOne(step);
    side.stepsByUse.push_back(step);
    while (side.stepsByUse.size() > kMaxStepSlices)
        side.stepSlices.remove(side.stepsByUse.takeFirst());
}

void RunSession::keepResult(const QString& fullKey, CachedResultPtr result)
{
    m_results.insert(fullKey, std::move(result));
    m_lastUse.insert(fullKey, ++m_useClock);
    while (m_results.size() > kMaxCachedResults) {
        auto oldest = m_lastUse.cbegin();
        for (auto it = m_lastUse.cbegin(); it != m_lastUse.cend(); ++it)
            if (it.value() < oldest.value())
                oldest = it;
        m_results.remove(oldest.key());
        m_lastUse.erase(oldest);
    }
}

void RunSession::setSlice(std::shared_ptr<const Run> slice)
{
    m_slice = std::move(slice);
    ++m_sliceGeneration;
    emit sliceChanged();
}

QString RunSession::cacheKey(const QString& key, bool comparison) const
{
    if (comparison)
        return QStringLiteral("cmp|%1|%2|").arg(m_sides[0].generation).arg(m_sides[1].generation) + key;
    return QStringLiteral("%1|step=%2|").arg(m_sides[int(m_shown)].generation).arg(m_selection->step()) + key;
}

QString RunSession::cacheKey(const AnalysisRequest& request) const { return cacheKey(request.key, bool(request.compare)); }

CachedResultPtr RunSession::request(const AnalysisRequest& request)
{
    const bool comparison = bool(request.compare);
    if (comparison ? !(m_sides[0].run && m_sides[1].run) : !m_slice)
        return nullptr;
    const QString fullKey = cacheKey(request);
    if (const auto it = m_results.constFind(fullKey); it != m_results.cend()) {
        m_lastUse.insert(fullKey, ++m_useClock);
        return *it;
    }
    if (m_inFlight.contains(fullKey) || m_failures.contains(fullKey))
        return nullptr;
    m_inFlight.insert(fullKey);
    // A result belongs to the runs it was computed from: dropped if either was replaced meanwhile.
    const quint64 controlGeneration = m_sides[0].generation;
    const quint64 testGeneration = m_sides[1].generation;
    const RunSide side = m_shown;
    const auto stillOpen = [this, comparison, controlGeneration, testGeneration, side] {
        if (comparison)
            return m_sides[0].generation == controlGeneration && m_sides[1].generation == testGeneration;
        return m_sides[int(side)].generation == (side == RunSide::Control ? controlGeneration : testGeneration);
    };
    auto* watcher = new QFutureWatcher<Outcome>(this);
    connect(watcher, &QFutureWatcherBase::finished, this, [this, watcher, fullKey, key = request.key, stillOpen] {
        watcher->deleteLater();
        if (!stillOpen()) {
            m_inFlight.remove(fullKey);
            if (!isBusy())
                emit idle();
            return;
        }
        Outcome outcome = watcher->result();
        if (outcome.result)
            keepResult(fullKey, std::move(outcome.result));
        else
            m_failures.insert(fullKey, outcome.error.isEmpty() ? tr("the analysis returned nothing") : outcome.error);
        ++m_computed;
        finishJob(fullKey, key);
    });
    // Checked again when the job starts: a run replaced while its job waited for a thread (each
    // snapshot of a progressive load replaces the one before) costs nothing. The finished
    // handler above drops such a job's empty outcome, as its run is no longer open.
    const auto live = m_live;
    const auto replaced = [live, comparison, controlGeneration, testGeneration, side] {
        if (comparison)
            return live->side[0] != controlGeneration || live->side[1] != testGeneration;
        return live->side[int(side)] != (side == RunSide::Control ? controlGeneration : testGeneration);
    };
    const QString name = request.key;
    if (comparison) {
        const auto control = m_sides[0].run, test = m_sides[1].run;
        watcher->setFuture(QtConcurrent::run([control, test, compare = request.compare, replaced, name] {
            return replaced() ? Outcome{} : timed(name, [&] { return compare(*control, *test); });
        }));
    } else {
        const auto slice = m_slice;
        watcher->setFuture(QtConcurrent::run([slice, compute = request.compute, replaced, name] {
            return replaced() ? Outcome{} : timed(name, [&] { return compute(*slice); });
        }));
    }
    return nullptr;
}

RunSession::Outcome RunSession::timed(const QString& key, const std::function<CachedResultPtr()>& compute)
{
    QElapsedTimer clock;
    clock.start();
    Outcome outcome = guarded(compute);
    KSCOPE_LOG(Ui, Debug, "computed " << key.toStdString() << " in " << clock.nsecsElapsed() / 1000000.0 << " ms");
    return outcome;
}

RunSession::Outcome RunSession::guarded(const std::function<CachedResultPtr()>& compute)
{
    // An exception must not cross into the event loop (it would end the program): it becomes
    // the view's message.
    try {
        return {compute(), {}};
    } catch (const std::bad_alloc&) {
        return {nullptr, tr("out of memory")};
    } catch (const std::exception& e) {
        return {nullptr, QString::fromUtf8(e.what())};
    } catch (...) {
        return {nullptr, tr("an unknown error")};
    }
}

QString RunSession::failure(const AnalysisRequest& request) const
{
    return m_failures.value(cacheKey(request));
}

void RunSession::finishJob(const QString& fullKey, const QString& key)
{
    m_inFlight.remove(fullKey);
    emit resultReady(key);
    if (!isBusy())
        emit idle();
}

} // namespace kscope
