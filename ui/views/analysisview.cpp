#include "views/analysisview.h"
#include "views/viewlayout.h"

#include "common/format.h"
#include "models/resulttablemodel.h"
#include "models/resulttableview.h"
#include "plots/chartview.h"
#include "plots/plotdata.h"
#include "plots/plots.h"

#include "analysis/core/kernelnames.h"
#include "analysis/tables/resulttables.h"
#include "analysis/patterns/steps.h"
#include "model/trace.h"

#include <QBoxLayout>
#include <QGuiApplication>
#include <QLabel>
#include <QPushButton>
#include <QLocale>

namespace kscope {

AnalysisView::AnalysisView(const ViewSpec& spec, RunSession* session, QWidget* parent)
    : QWidget(parent), m_spec(spec), m_session(session)
{
    connect(session, &RunSession::sliceChanged, this, &AnalysisView::refresh);
    connect(session, &RunSession::comparisonChanged, this, [this] {
        if (m_spec.follows & Follows::Comparison)
            refresh();
    });
    connect(session, &RunSession::optionsChanged, this, [this](const QString& view) {
        if (view == id())
            refresh();
    });
    connect(session, &RunSession::resultReady, this, [this](const QString& key) {
        if (m_waitingFor.contains(key))
            tryPresent();
        else if (isCurrent() && key == healthRequest().key())
            updateHealthLine();
    });
    SelectionModel* sel = session->selection();
    connect(sel, &SelectionModel::ranksChanged, this, [this] {
        if (m_spec.follows & Follows::Ranks)
            refresh();
        else if (isCurrent())
            highlightSelection();
    });
    connect(sel, &SelectionModel::kernelChanged, this, [this] {
        if (m_spec.follows & Follows::Kernel)
            refresh();
        else if (isCurrent())
            highlightSelection();
    });
    connect(sel, &SelectionModel::eventChanged, this, [this] {
        if (isCurrent())
            highlightSelection();
    });
    connect(sel, &SelectionModel::opChanged, this, [this] {
        if (m_spec.follows & Follows::Op)
            refresh();
    });
    connect(sel, &SelectionModel::timeRangeChanged, this, [this] {
        if (m_spec.follows & Follows::TimeRange)
            refresh();
        else if (isCurrent())
            highlightSelection();
    });
}

QString AnalysisView::title() const { return tr(m_spec.title); }

bool AnalysisView::isCurrent() const
{
    return m_current && m_presentedGeneration == m_session->sliceGeneration();
}

QList<TableExport> AnalysisView::tables() const
{
    // A message on screen ("No run loaded", "No usable rank") has no table behind it, whatever
    // the view presented before.
    if (!isCurrent() || (!m_presentedResult && !hasTablesWithoutResult()))
        return {};
    // As the CLI writes them: partial ranks marked, failed files and skipped files in the notes.
    QList<TableExport> tables = currentTables();
    // Kernel tables carry the short names the screen shows, as their own CSV export does.
    for (TableExport& t : tables) {
        for (const ResultTableView* view : m_tableViews)
            if (t.shortNameColumn.isEmpty() && t.name.startsWith(view->exportName()))
                t.shortNameColumn = view->shortNameColumn();
        if (!t.shortNameColumn.isEmpty())
            t.table = withShortNameColumn(std::move(t.table), t.shortNameColumn.toStdString());
    }
    if (const auto run = m_session->run())
        for (TableExport& t : tables)
            t.table = withLoadOutcome(std::move(t.table), *run);
    return tables;
}

void AnalysisView::addCharts(std::initializer_list<ChartView*> charts) { m_charts.append(QList<ChartView*>(charts)); }
void AnalysisView::addTableViews(std::initializer_list<ResultTableView*> tables)
{
    m_tableViews.append(QList<ResultTableView*>(tables));
}

void AnalysisView::refresh()
{
    m_current = false;
    m_presentedResult = false;
    m_waitingFor.clear();
    const auto run = m_session->run();
    if (!run) {
        finishWith(tr("No run loaded. Use File ▸ Open Run Folder or drop a folder here."));
        return;
    }
    if (run->ranks.empty()) {
        QString why = run->errors.empty() ? tr("no trace file found") : fmt::qstr(run->errors.front().message);
        finishWith(tr("No usable rank in %1: %2").arg(fmt::qstr(run->folder.filename().string()), why));
        return;
    }
    tryPresent();
}

void AnalysisView::tryPresent()
{
    if (!m_session->slice()) {
        showMessage(tr("Computing…"));
        m_showingComputing = true;
        return;
    }
    // A view out of sight does not compute on a progressive load's snapshot: the next snapshot
    // soon replaces it, and every analysis run beside the load slows the load. It computes when
    // it is shown, or on the whole run.
    if (const Run& shown = *m_session->slice(); shown.isPartial() && !m_onScreen) {
        m_deferredWhileHidden = true;
        showMessage(tr("Loading: %1 of %2 ranks read; this view computes when the run has loaded or when it is shown")
                        .arg(shown.ranks.size())
                        .arg(shown.ranks.size() + shown.filesStillLoading));
        m_showingComputing = false;
        return;
    }
    m_deferredWhileHidden = false;
    const QList<AnalysisRequest> wanted = requests();
    ResultSet results;
    QStringList missing;
    for (const AnalysisRequest& request : wanted) {
        if (CachedResultPtr result = m_session->request(request)) {
            results.insert(request.key, std::move(result));
        } else if (const QString why = m_session->failure(request); !why.isEmpty()) {
            finishWith(tr("Could not compute this view: %1").arg(why));
            return;
        } else {
            missing.push_back(request.key);
        }
    }
    m_waitingFor = missing;
    if (!missing.isEmpty()) {
        if (!m_showingComputing)
            showMessage(tr("Computing…"));
        m_showingComputing = true;
        return;
    }
    m_showingComputing = false;
    present(results);
    m_current = true;
    m_presentedResult = true;
    m_presentedGeneration = m_session->sliceGeneration();
    updateHealthLine();
    emit presented();
}

Request<TraceHealth> AnalysisView::healthRequest() const
{
    return analysisRequest("health", NoOptions{}, [](const Run& run, NoOptions) { return traceHealth(run); });
}

void AnalysisView::updateHealthLine()
{
    if (m_spec.commands.isEmpty())
        return;
    const auto health = resultAs<TraceHealth>(m_session->request(healthRequest()));
    QStringList problems;
    int more = 0;
    if (health && m_session->slice()) {
        for (const HealthProblem& problem : health->problems) {
            if (severityOf(problem.check) == HealthSeverity::Info)
                continue;
            const bool affected = std::any_of(m_spec.commands.begin(), m_spec.commands.end(), [&](const QString& command) {
                return affectsCommand(problem.check, command.toStdString());
            });
            if (!affected)
                continue;
            if (problems.size() == 3) {
                ++more;
                continue;
            }
            const QString who = problem.rank >= 0 ? tr("rank %1").arg(problem.rank) : tr("a file");
            problems.push_back(tr("%1: %2 ×%3").arg(who, fmt::qstr(toString(problem.check))).arg(problem.count));
        }
    }
    if (problems.isEmpty()) {
        if (m_healthLine)
            m_healthLine->hide();
        return;
    }
    if (!m_healthLine) {
        m_healthLine = new QLabel(this);
        m_healthLine->setObjectName(QStringLiteral("healthLine"));
        makeCaption(m_healthLine, false);
        m_healthLine->setStyleSheet(QStringLiteral("color: #a05a00;"));
        connect(m_healthLine, &QLabel::linkActivated, this, [this] { showInView(QStringLiteral("health")); });
        if (auto* box = qobject_cast<QBoxLayout*>(layout()))
            box->insertWidget(0, m_healthLine);
    }
    QString text = tr("⚠ Trace health: %1").arg(problems.join(QStringLiteral("; ")).toHtmlEscaped());
    if (more > 0)
        text += tr("; %1 more").arg(more);
    m_healthLine->setText(text + tr(" — <a href=\"health\">see Trace health</a>"));
    m_healthLine->setToolTip(tr("Problems of the trace that may make this view's answers wrong"));
    m_healthLine->show();
}

void AnalysisView::setOnScreen(bool on)
{
    m_onScreen = on;
    if (on && m_deferredWhileHidden)
        tryPresent();
}

void AnalysisView::finishWith(const QString& message)
{
    m_showingComputing = false;
    showMessage(message);
    m_current = true;
    m_presentedGeneration = m_session->sliceGeneration();
    emit presented();
}

void AnalysisView::showMessage(const QString& message)
{
    for (ChartView* chart : std::as_const(m_charts))
        chart->showOnlyMessage(message);
    for (ResultTableView* table : std::as_const(m_tableViews))
        table->setTable(nullptr);
}

void AnalysisView::clickRank(RankIndex rank)
{
    selection()->clickRank(rank, QGuiApplication::keyboardModifiers() & Qt::ControlModifier);
    emit rankClicked(rank);
}

void AnalysisView::pickKernel(quint32 kernel, const QString& name)
{
    selection()->setKernel(kernel, name);
    emit kernelPicked(kernel);
}

void AnalysisView::pickOnTimeline(RankIndex rank, EventIndex row, int64_t fromNs, int64_t toNs)
{
    const auto slice = m_session->slice();
    if (!slice || !slice->has(rank) || row < 0 || size_t(row) >= slice->at(rank).events.size())
        return;
    const EventTable& t = slice->at(rank).events;
    if (t.kind[row] == EventKind::Kernel || t.kind[row] == EventKind::Memcpy || t.kind[row] == EventKind::Memset)
        pickKernel(t.name[row].value, fmt::qstr(slice->str(t.name[row])));
    pickEvent(rank, row);
    if (toNs <= fromNs) {
        fromNs = t.tsNs[row];
        toNs = std::max(t.endNs(row), fromNs + 1);
    }
    selection()->setTimeRange({qint64(fromNs - slice->minTsNs), qint64(toNs - slice->minTsNs)});
}

QPushButton* AnalysisView::timelineButton(const QString& tooltip, std::function<void()> choose)
{
    auto* button = new QPushButton(tr("Show on timeline"), this);
    button->setToolTip(tooltip);
    button->setEnabled(false);
    connect(button, &QPushButton::clicked, this, [this, choose = std::move(choose)] {
        choose();
        showInView(QStringLiteral("timeline"));
    });
    return button;
}

void AnalysisView::pickEvent(RankIndex rank, EventIndex row)
{
    const auto slice = m_session->slice();
    if (!slice || !slice->has(rank) || row < 0 || size_t(row) >= slice->at(rank).events.size())
        return;
    selection()->setEvent(EventRef{rank, slice->at(rank).runRow(row)});
}

EventIndex AnalysisView::selectedEventRow(RankIndex rank) const
{
    const std::optional<EventRef> event = selection()->event();
    const auto slice = m_session->slice();
    if (!event || event->rank != rank || !slice || !slice->has(rank))
        return kNoEvent;
    return slice->at(rank).rowOfRunEvent(event->event);
}

RankIndex AnalysisView::shownRank() const
{
    const auto slice = m_session->slice();
    const std::optional<RankIndex> selected = selection()->rank();
    return slice && selected && slice->has(*selected) ? *selected : RankIndex{};
}

QList<RankIndex> AnalysisView::shownRanks() const
{
    const auto slice = m_session->slice();
    QList<RankIndex> ranks;
    if (slice)
        for (RankIndex rank : selection()->ranks())
            if (slice->has(rank) && !ranks.contains(rank))
                ranks.push_back(rank);
    if (ranks.isEmpty())
        ranks.push_back(shownRank());
    return ranks;
}

QString AnalysisView::shownRankName() const
{
    const auto slice = m_session->slice();
    return slice && slice->has(shownRank()) ? fmt::qstr(slice->rankName(shownRank())) : QString();
}

QString AnalysisView::shownRankTag() const
{
    const auto slice = m_session->slice();
    if (!slice || !slice->has(shownRank()))
        return QStringLiteral("rank");
    const QString tag = QStringLiteral("rank%1").arg(slice->at(shownRank()).rank);
    return slice->numberShared(shownRank()) ? tag + QStringLiteral("-%1").arg(shownRank().value) : tag;
}

QList<RankIndex> AnalysisView::partialRanks() const
{
    QList<RankIndex> ranks;
    if (const auto run = m_session->run())
        for (const LoadError& e : run->errors)
            if (e.partial)
                for (const RankTrace& r : run->ranks)
                    if (r.file == e.file)
                        ranks.push_back(run->indexOf(r));
    return ranks;
}

QString AnalysisView::failedRanksNote() const
{
    const auto run = m_session->run();
    if (!run)
        return {};
    QStringList partial, failed;
    const QLocale c = QLocale::c();
    for (const LoadError& e : run->errors) {
        if (e.kind == LoadErrorKind::Cancelled)
            continue;
        if (e.partial)
            partial << tr("rank %1 read only to byte %2 (%3)").arg(e.rank).arg(c.toString(qulonglong(e.byteOffset)),
                                                                        fmt::qstr(toString(e.kind)));
        else
            failed << fmt::qstr(e.file.filename().string());
    }
    QStringList parts;
    if (!partial.isEmpty())
        parts << tr("Hatched: %1").arg(partial.join(QStringLiteral(", ")));
    if (!failed.isEmpty())
        parts << tr("Not shown: %1 could not be read").arg(failed.join(QStringLiteral(", ")));
    if (parts.isEmpty())
        return {};
    return parts.join(QStringLiteral(" · ")) + tr(" (see Import issues)");
}

void AnalysisView::markRanks(ChartView* chart) const
{
    chart->setMarkedIds(rankChartIds(partialRanks()));
    chart->setHighlightedIds(rankChartIds(selection()->ranks()));
}

void AnalysisView::drawRankBars(ChartView* chart, BarChartData data, const ResultSet& results) const
{
    QStringList notes{data.footnote, failedRanksNote(), stragglersNote(results)};
    notes.removeAll(QString());
    data.footnote = notes.join(QStringLiteral(" · "));
    drawBars(*chart, data);
    markRanks(chart);
}

bool AnalysisView::htaCompat() const
{
    const std::shared_ptr<const Run> shown = m_session->slice();
    return shown ? shown->htaCompat : m_session->htaCompat();
}

Request<Stragglers> AnalysisView::stragglersRequest() const
{
    // The whole run, whatever step is selected: stragglers are a property of the steps together.
    // (The session keys results by the shown run's generation, which names `whole`.)
    const std::shared_ptr<const Run> whole = m_session->run();
    return analysisRequest("stragglers-of-whole-run", StragglerOptions{.htaCompat = whole && whole->htaCompat},
                           [whole](const Run&, const StragglerOptions& options) {
                               return potentialStragglers(*whole, options);
                           });
}

QString AnalysisView::stragglersNote(const ResultSet& results) const
{
    const auto stragglers = results.share(stragglersRequest());
    if (!stragglers || stragglers->ranks.empty())
        return {};
    QStringList ranks;
    for (int r : stragglers->ranks)
        ranks << QString::number(r);
    return tr("⚑ potential stragglers (HTA's late-start rule): rank %1").arg(ranks.join(QStringLiteral(", ")));
}

QString AnalysisView::option(const QString& name, const QVariant& fallback) const
{
    return m_session->option(id(), name, fallback).toString();
}

double AnalysisView::numberOption(const QString& name, double fallback) const
{
    return m_session->option(id(), name, fallback).toDouble();
}

bool AnalysisView::boolOption(const QString& name, bool fallback) const
{
    return m_session->option(id(), name, fallback).toBool();
}

} // namespace kscope
